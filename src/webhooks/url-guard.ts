/**
 * Where the gateway may POST webhooks (docs/contract.md, Webhooks). Staging accepts any http(s) URL so local
 * receivers work. Production accepts only https to a public host: never loopback, private,
 * link-local, CGNAT, reserved or metadata addresses, whatever spelling they hide behind
 * (decimal/hex/octal IPv4, IPv4-mapped or -embedding IPv6, trailing dots, local-only names).
 *
 * It judges the URL text only; a public name that resolves to a private address is stopped by the
 * platform (Workers cannot open connections into private networks), not here.
 */

export type UrlVerdict = { ok: true } | { ok: false; reason: string };

const refuse = (reason: string): UrlVerdict => ({ ok: false, reason });
const ALLOWED: UrlVerdict = { ok: true };

/** Names that only mean something inside a host or a private network. */
const BLOCKED_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'instance-data']);
const BLOCKED_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.arpa'];

type Cidr4 = [a: number, b: number, c: number, d: number, prefix: number, label: string];

/** Every IPv4 range that is not publicly routable (IANA special-purpose registry). */
const BLOCKED_V4: Cidr4[] = [
  [0, 0, 0, 0, 8, 'a "this network" address'],
  [10, 0, 0, 0, 8, 'a private address'],
  [100, 64, 0, 0, 10, 'a carrier-grade NAT address'],
  [127, 0, 0, 0, 8, 'a loopback address'],
  [169, 254, 0, 0, 16, 'a link-local or metadata address'],
  [172, 16, 0, 0, 12, 'a private address'],
  [192, 0, 0, 0, 24, 'a reserved address'],
  [192, 0, 2, 0, 24, 'a documentation address'],
  [192, 88, 99, 0, 24, 'a reserved address'],
  [192, 168, 0, 0, 16, 'a private address'],
  [198, 18, 0, 0, 15, 'a benchmarking address'],
  [198, 51, 100, 0, 24, 'a documentation address'],
  [203, 0, 113, 0, 24, 'a documentation address'],
  [224, 0, 0, 0, 4, 'a multicast address'],
  [240, 0, 0, 0, 4, 'a reserved address'],
];

export function checkWebhookUrl(raw: string, options: { production: boolean }): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('must be an http or https URL');
  if (!options.production) return ALLOWED;
  if (url.protocol !== 'https:') return refuse('must use https');
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[')) return checkIpv6(host.slice(1, -1));
  const v4 = parseIpv4(host);
  if (v4 !== undefined) return checkIpv4(v4);
  if (BLOCKED_NAMES.has(host) || BLOCKED_SUFFIXES.some((s) => host.endsWith(s))) {
    return refuse('must not point to a local or internal host name');
  }
  if (!host.includes('.')) return refuse('must name a fully qualified public host');
  return ALLOWED;
}

/**
 * IPv4 in any spelling `inet_aton` accepts (1 to 4 parts, decimal, 0x hex or 0-led octal), so
 * `2130706433`, `0x7f.1` and `0177.0.0.1` are all 127.0.0.1. Undefined when not an address.
 */
export function parseIpv4(host: string): number | undefined {
  const parts = host.split('.');
  if (parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = Number.parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return undefined;
    values.push(value);
  }
  const last = values.pop() as number;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return undefined;
  return values.reduce((acc, v, i) => acc + v * 256 ** (3 - i), 0) + last;
}

function checkIpv4(address: number): UrlVerdict {
  for (const [a, b, c, d, prefix, label] of BLOCKED_V4) {
    const base = ((a * 256 + b) * 256 + c) * 256 + d;
    const size = 2 ** (32 - prefix);
    if (address >= base && address < base + size) return refuse(`must not point to ${label}`);
  }
  return ALLOWED;
}

/** Eight 16-bit words, or undefined when not a valid IPv6 literal (zone ids are refused). */
export function parseIpv6(literal: string): number[] | undefined {
  if (literal.includes('%')) return undefined;
  let text = literal;
  // A dotted IPv4 tail (`::ffff:127.0.0.1`) becomes the two hex words it stands for.
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    const prefix = text.slice(0, dotted.index);
    if ([a, b, c, d].some((o) => o > 255) || !prefix.endsWith(':')) return undefined;
    text = `${prefix}${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves[1] ? halves[1].split(':') : [];
  if (![...head, ...rest].every((w) => /^[0-9a-f]{1,4}$/i.test(w))) return undefined;
  const fill = 8 - head.length - rest.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  const zeros = Array<string>(halves.length === 2 ? fill : 0).fill('0');
  return [...head, ...zeros, ...rest].map((w) => Number.parseInt(w, 16));
}

function embeddedV4(high: number, low: number): number {
  return high * 65536 + low;
}

function checkIpv6(text: string): UrlVerdict {
  const w = parseIpv6(text);
  if (!w) return refuse('must not use a malformed IPv6 address');
  const [w0, w1, w2, w3, w4, w5, w6, w7] = w as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zeroPrefix = (n: number) => w.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(7) && (w7 === 0 || w7 === 1))
    return refuse('must not point to a loopback or unspecified address');
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d)
  // and NAT64 (64:ff9b::a.b.c.d) addresses reach the IPv4 address they carry.
  if ((zeroPrefix(5) && w5 === 0xffff) || (zeroPrefix(4) && w4 === 0xffff && w5 === 0) || zeroPrefix(6)) {
    return checkIpv4(embeddedV4(w6, w7));
  }
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) {
    return checkIpv4(embeddedV4(w6, w7));
  }
  if (w0 === 0x2002) return checkIpv4(embeddedV4(w1, w2)); // 6to4 carries an IPv4 address too
  if ((w0 & 0xfe00) === 0xfc00) return refuse('must not point to a unique-local (private) address');
  if ((w0 & 0xffc0) === 0xfe80) return refuse('must not point to a link-local address');
  if ((w0 & 0xffc0) === 0xfec0) return refuse('must not point to a site-local address');
  if ((w0 & 0xff00) === 0xff00) return refuse('must not point to a multicast address');
  if (w0 === 0x2001 && w1 === 0) return refuse('must not point to a Teredo address');
  if (w0 === 0x2001 && w1 === 0xdb8) return refuse('must not point to a documentation address');
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 1) return refuse('must not point to a local NAT64 address');
  if (w0 === 0x100 && w1 === 0 && w2 === 0 && w3 === 0) return refuse('must not point to a discard address');
  if (w0 === 0) return refuse('must not point to a reserved address');
  return ALLOWED;
}
