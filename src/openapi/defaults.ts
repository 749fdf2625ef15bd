/**
 * Request defaults in words, not in the `default` keyword. Code generators read `default` as "the
 * server always sends it": openapi-typescript (default flags) makes every such field required, so a
 * valid request that omits `expirationInMinutes` would not compile. The document therefore states a
 * default in the field's description ("Default: 1440.") and keeps the field optional; the server
 * still applies it. test/node/openapi-types.test.ts generates the types and compiles requests.
 */
import type { Schema } from './json-schema';

function sentence(value: unknown): string {
  return `Default: ${typeof value === 'string' ? `\`${value}\`` : JSON.stringify(value)}.`;
}

/** A copy of `schema` with every `default` moved into its description, at any depth. */
export function defaultsInWords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(defaultsInWords);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    if (key !== 'default') out[key] = defaultsInWords(value);
  }
  if ('default' in (schema as Schema)) {
    const said = sentence((schema as Schema).default);
    const description = typeof out.description === 'string' ? out.description : '';
    out.description = description.includes(said) ? description : `${description} ${said}`.trim();
  }
  return out;
}
