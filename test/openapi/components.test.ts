/**
 * Schema references are objects: an operation names the valibot schema itself, the document writes
 * each named schema once under `components.schemas` and `$ref`s it everywhere else. A schema
 * without a name cannot be referenced, two schemas under one name cannot both be written, and
 * nothing reached is left out.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/api/document';
import { OPERATIONS } from '../../src/api/routes';
import { components } from '../../src/openapi/components';
import { ref } from '../../src/openapi/json-schema';
import { schemasOf } from '../../src/openapi/operation';
import { named, nameOf } from '../../src/schemas/named';

type Json = Record<string, any>;

describe('component schemas', () => {
  it('every schema an operation names is a component, written once and referenced by $ref', () => {
    const doc = buildOpenApiDocument() as Json;
    const schemas = doc.components.schemas as Json;
    for (const op of OPERATIONS)
      for (const schema of schemasOf(op))
        expect(schemas[nameOf(schema) as string], op.operationId).toBeDefined();
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]);
    expect(refs.filter((name) => !((name as string) in schemas))).toEqual([]);
    expect(Object.keys(schemas)).toEqual([...Object.keys(schemas)].sort());
  });

  it('a nested named schema is a $ref inside its parent', () => {
    const Inner = named('TestInner', v.object({ a: v.string() }));
    const Outer = named('TestOuter', v.object({ inner: Inner, list: v.array(v.optional(Inner)) }));
    const out = components([Outer]);
    expect(Object.keys(out)).toEqual(['TestInner', 'TestOuter']);
    expect((out.TestOuter as Json).properties.inner).toEqual({ $ref: '#/components/schemas/TestInner' });
  });

  it('refuses a reference to an unnamed schema, and two schemas under one name', () => {
    expect(() => ref(v.object({ a: v.string() }))).toThrow(/without a name/);
    const one = named('TestTwice', v.object({ a: v.string() }));
    const other = named('TestTwice', v.object({ b: v.string() }));
    expect(() => components([v.object({ one, other })])).toThrow(/two schemas are named TestTwice/);
    expect(() => named('TestRenamed', one)).toThrow(/named again/);
  });

  it('field notes go to the properties of their component', () => {
    const Noted = named('TestNoted', v.object({ a: v.string() }), { a: 'What a means.' });
    expect((components([Noted]).TestNoted as Json).properties.a.description).toBe('What a means.');
    const Wrong = named('TestWrongNote', v.object({ a: v.string() }), { b: 'No such field.' });
    expect(() => components([Wrong])).toThrow(/unknown field TestWrongNote.b/);
  });
});
