/**
 * Every documented operation, called the wrong ways (no credentials, an empty body, a body that
 * is not JSON, unknown ids, no query), must still answer only what the document lists for it:
 * this is what keeps the per-operation error codes honest.
 */
import { describe, it } from 'vitest';
import { ADMIN_TOKEN, call, Integrator, sign } from '../support/harness';
import { expectDocumented, servedDocument } from './conformance';

type Json = Record<string, any>;

const BODIES: (string | undefined)[] = [undefined, '{}', 'not json', '{"amount":"1","reason":7,"name":""}'];

function pathFor(template: string, clientId: string): string {
  const values: Record<string, string> = {
    id: 'NOPE123',
    clientId,
    number: 'NOPE-1',
    ispb: '99999999',
    eventId: 'evt_nope',
    locator: 'nope',
  };
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'x');
}

async function headersFor(op: Json, api: Integrator): Promise<Record<string, string>[]> {
  const schemes = (op.security ?? []).flatMap((s: Json) => Object.keys(s));
  if (schemes.includes('operatorToken')) return [{}, { authorization: `Bearer ${ADMIN_TOKEN}` }];
  if (!schemes.includes('bearerAuth')) return [{}];
  const signed = schemes.includes('digitalSignature')
    ? [api.headers({ digitalsignature: await sign(api.client.cryptoToken, api.token) })]
    : [];
  return [{}, { authorization: `Bearer ${api.token}` }, api.headers(), ...signed];
}

describe('every operation answers only documented responses', () => {
  it('to credentials, bodies and ids that are missing or wrong', async () => {
    const doc = await servedDocument();
    const api = await Integrator.create();
    for (const [template, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        const path = pathFor(template, api.client.clientId);
        const bodies = method === 'get' || method === 'delete' ? [undefined] : BODIES;
        for (const headers of await headersFor(op, api)) {
          for (const body of bodies) {
            const init: RequestInit = {
              method: method.toUpperCase(),
              redirect: 'manual',
              headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
              ...(body !== undefined && { body }),
            };
            await expectDocumented(await call(path, init), method, template);
          }
        }
      }
    }
  });
});
