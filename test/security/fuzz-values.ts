/**
 * fast-check arbitraries for hostile input: one-field mutations of a valid body, raw JSON text the
 * serializer cannot produce, malformed bodies, path segments, query strings and header values.
 */
import fc from 'fast-check';

type Json = Record<string, any>;
type Key = string | number;

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Values that break a field: wrong types, boundary and inexact numbers, odd strings, nulls. */
export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    -0.01,
    0.001,
    0.005,
    1.005,
    0.1 + 0.2,
    1e-7,
    1e21,
    1e308,
    -1e308,
    2 ** 53 - 1,
    2 ** 53 + 2,
    43200,
    43201,
    1.5,
    '',
    ' ',
    '0',
    '10.50',
    'a'.repeat(51),
    'a'.repeat(141),
    'x'.repeat(5000),
    'ção 🙂',
    '\u0000',
    '\u202e\u200b',
    '１２３４５６７８９０９',
    '123.456.789-09',
    '12345678909 ',
    // Amounts at, near and above the cap (decisions §5).
    9_999_999_999.99,
    9_999_999_999.991,
    10_000_000_000,
    80_000_000_000_000.09,
    90_071_992_547_409.9,
    // Documents with wrong check digits, and names a BR Code cannot carry or that are too long.
    '12345678900',
    '00000000000',
    '12345678000194',
    '11111111111111',
    '東京商事株式会社',
    'Москва',
    'ação'.repeat(40),
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '../../etc/passwd',
    [],
    {},
    [1, 2],
    { a: 1 },
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** JSON number and string literals JSON.stringify never writes, and plain broken JSON. */
export const rawLiteral = fc.constantFrom(
  '1e400',
  '-1e400',
  '9007199254740993',
  '0.1000000000000000000001',
  '-0',
  '1E2',
  '0.1e1',
  '"\\ud800"',
  '"\\u0000"',
  '"\u2028"',
  '00.5',
  'NaN',
  'Infinity',
  '1.',
  '.5',
  '+1',
  '0x10',
  "'single'",
  'tru',
  'undefined',
);

const EXTRA_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'extra', '', 'amount ', 'AMOUNT'];

function pathsOf(value: unknown, prefix: Key[] = []): Key[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...pathsOf(v, [...prefix, i])]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
  }
  return [];
}

function objectPaths(value: unknown, prefix: Key[] = []): Key[][] {
  if (value === null || typeof value !== 'object') return [];
  const inner = Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...prefix, k]));
  return Array.isArray(value) ? inner : [prefix, ...inner];
}

const RAW = '\u0000raw\u0000';

function edit(root: Json, path: Key[], change: (parent: any, key: Key) => void): Json {
  const copy = structuredClone(root);
  let node: any = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  change(node, path.at(-1) as Key);
  return copy;
}

/** A body and a short name for it: fast-check prints the name, not a megabyte of brackets. */
export class BodyCase {
  constructor(
    readonly label: string,
    readonly data: string | Uint8Array,
  ) {}

  [fc.toStringMethod](): string {
    const size = typeof this.data === 'string' ? this.data.length : this.data.byteLength;
    return size > 300 ? `<${this.label}, ${size} bytes>` : `<${this.label}: ${fc.stringify(this.data)}>`;
  }
}

const body = (label: string, data: string | Uint8Array) => new BodyCase(label, data);

/** The example with exactly one thing wrong (or odd): a field replaced, removed, added or raw. */
export function mutatedBody(example: Json): fc.Arbitrary<BodyCase> {
  const fields = pathsOf(example);
  const objects = objectPaths(example);
  const json = (value: unknown) => JSON.stringify(value);
  const at = (path: Key[]) => path.join('.') || '(root)';
  const arbitraries: fc.Arbitrary<BodyCase>[] = [
    fc
      .tuple(fc.constantFrom(...objects), fc.oneof(fc.constantFrom(...EXTRA_NAMES), fc.string()), junkValue)
      .map(([path, name, value]) =>
        body(
          `extra ${at([...path, name])}`,
          json(
            edit(example, [...path, name], (p, k) =>
              Object.defineProperty(p, k, { value, enumerable: true }),
            ),
          ),
        ),
      ),
  ];
  if (fields.length > 0) {
    arbitraries.push(
      fc
        .tuple(fc.constantFrom(...fields), junkValue)
        .map(([path, value]) =>
          body(
            `${at(path)} = ${json(value)?.slice(0, 40)}`,
            json(edit(example, path, (p, k) => (p[k] = value))),
          ),
        ),
      fc
        .constantFrom(...fields)
        .map((path) =>
          body(
            `${at(path)} removed`,
            json(edit(example, path, (p, k) => (Array.isArray(p) ? p.splice(Number(k), 1) : delete p[k]))),
          ),
        ),
      fc
        .tuple(fc.constantFrom(...fields), rawLiteral)
        .map(([path, raw]) =>
          body(
            `${at(path)} = raw ${raw}`,
            json(edit(example, path, (p, k) => (p[k] = RAW))).replace(json(RAW), raw),
          ),
        ),
      fc
        .tuple(fc.constantFrom(...fields.filter((p) => p.length === 1)), junkValue)
        .map(([path, value]) =>
          body(
            `duplicate key ${at(path)}`,
            json(example).replace(/^\{/, `{${json(path[0])}:${json(value)},`),
          ),
        ),
    );
  }
  return fc.oneof(...arbitraries);
}

/** Deeply nested JSON: as the whole body, or inside an extra field of a valid example. */
export function deepBody(example: Json | undefined, depth: number): BodyCase[] {
  const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const cases = [body(`array nested ${depth} deep`, nested), body(`object nested ${depth} deep`, objects)];
  if (example) {
    const base = JSON.stringify(example).replace(/\}$/, '');
    cases.push(
      body(`extra field nested ${depth} deep`, `${base},"extra":${nested}}`),
      body(`extra object nested ${depth} deep`, `${base},"extra":${objects}}`),
    );
  }
  return cases;
}

/** Bodies that are not a JSON object in UTF-8, whatever the route expects. */
export function malformedBody(example: Json | undefined): fc.Arbitrary<BodyCase> {
  const valid = JSON.stringify(example ?? { a: 'b' });
  const quote = valid.indexOf('"', 2);
  const withBytes = (bytes: number[]) =>
    body(
      `invalid UTF-8 ${bytes.map((b) => b.toString(16)).join(' ')} inside a string`,
      new Uint8Array([...utf8(valid.slice(0, quote)), ...bytes, ...utf8(valid.slice(quote))]),
    );
  return fc.oneof(
    fc.constantFrom(
      withBytes([0xc3, 0x28]),
      withBytes([0xff, 0xfe]),
      withBytes([0xed, 0xa0, 0x80]),
      withBytes([0xf8, 0x88, 0x80, 0x80, 0x80]),
      withBytes([0xc0, 0xaf]),
      body('UTF-16 with BOM', new Uint8Array([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d])),
      body('truncated', valid.slice(0, -1)),
      body('array', '[]'),
      body('null', 'null'),
      body('string', '"text"'),
      body('number', '42'),
      body('two objects', `${valid}${valid}`),
      body('trailing text', `${valid} trailing`),
      body('form', 'a=1&b=2'),
      body('multipart', '--x\r\ncontent-disposition: form-data; name="amount"\r\n\r\n1\r\n--x--'),
      body('empty', ''),
    ),
    fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => body('random bytes', bytes)),
    fc.string({ minLength: 1, maxLength: 200 }).map((text) => body('random text', text)),
  );
}

/** More than a megabyte: a valid example with a huge extra string. */
export function hugeBody(example: Json | undefined): BodyCase {
  return body('over 1 MB', JSON.stringify({ ...example, padding: 'x'.repeat(1_100_000) }));
}

/** Path segments no resource has, already percent-encoded (or deliberately not). */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).map(encodeURIComponent),
  fc.constantFrom(
    '%',
    '%zz',
    '%C3%28',
    '%ED%A0%80',
    '%00',
    '%0A',
    '%20%20',
    '%2F',
    '%2E%2E',
    '..',
    '.',
    '...',
    '%2e%2e%2f%2e%2e%2fadmin',
    '%F0%9F%92%A9',
    'A'.repeat(101),
    'A'.repeat(8000),
    '0'.repeat(33),
    'ABCDEFG',
    'E00000000202601010000abcdefghijk',
    '00000000-0000-0000-0000-000000000000',
    '31880826',
    '1%3B%20DROP%20TABLE%20cash_ins',
    '*',
    'null',
    'undefined',
    '__proto__',
    'constructor',
  ),
);

const DATES = [
  '2026-01-01',
  '2026-02-30',
  '2026-13-01',
  '2026-1-1',
  '0000-01-01',
  '9999-12-31',
  '275760-09-13',
  '2026-11-21T10:00:00',
  '2026-11-21T10:00:00Z',
  '2026-11-21T10:00:00.123-03:00',
  '2026-11-21T24:00:00',
  '2026-11-21T10:00:00+99:00',
  'yesterday',
  'now',
  '',
  '1e3',
];

/** Query values: dates valid and not, numbers at and past the limits, cursors that are not ours. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...DATES),
  fc.constantFrom(
    '0',
    '1',
    '50',
    '1000',
    '1001',
    '-1',
    '01',
    '1.5',
    '1e3',
    ' 5',
    'asc',
    'desc',
    'ASC',
    'random',
  ),
  fc.constantFrom('ACTIVE', 'active,resolved', 'ACTIVE,,', ',', 'BROKEN', 'PENDING', 'DELIVERED'),
  fc.constantFrom('eyJhIjoxfQ', 'AAAA', 'v1.x.y', '%', 'x'.repeat(5000), '🙂'),
  fc.string({ maxLength: 30 }),
  fc.base64String({ maxLength: 200 }),
);

/**
 * A query string over the route's own parameters and some strangers, keys possibly repeated;
 * `known` values (real cursors, say) join the pool.
 */
export function queryString(names: string[], known: string[] = []): fc.Arbitrary<string> {
  const keys = [...names, 'at', 'x', 'from[]', 'limit', '__proto__', ''];
  const values = known.length > 0 ? fc.oneof(queryValue, fc.constantFrom(...known)) : queryValue;
  return fc.oneof(
    fc.array(fc.tuple(fc.constantFrom(...keys), values), { maxLength: 6 }).map((pairs) => {
      const params = new URLSearchParams();
      for (const [k, v] of pairs) params.append(k, v);
      return params.toString();
    }),
    fc.constantFrom('%', '%zz=%zz', '&&&', '=', 'from=%C3%28', `q=${'a'.repeat(20_000)}`, 'a=1&a=2&a=3'),
  );
}

/**
 * Header values: blank, long, near misses. ASCII only: workerd re-encodes any other character as
 * UTF-8 (with a warning per request), so invalid UTF-8 cannot reach a header through the Fetch
 * API; fuzz-routes.test.ts sends a few non-ASCII values on purpose.
 */
export const headerJunk: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    'x'.repeat(8000),
    '00000000-0000-0000-0000-000000000000',
    'Bearer',
    'Bearer Bearer x',
    'Bearer a.b.c',
    'bearer eyJ.eyJ.sig',
  ),
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
);
