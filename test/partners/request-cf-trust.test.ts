/**
 * Where `request.cf` is not the edge's (`npm start`: wrangler dev builds it from a client's
 * `MF-CF-Blob` header, so REQUEST_CF=untrusted), a certificate in `request.cf.tlsClientAuth`
 * authenticates no partner callback; the secret path still does. On Cloudflare (no REQUEST_CF) the
 * edge's verified certificate is accepted as before.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { BASE } from '../support/harness';
import { CERT, SECRET } from '../support/partner-psp';

async function post(path: string, bindings: Env, cert?: Record<string, string>) {
  const request = new Request(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"pix":[]}',
    ...(cert && { cf: { tlsClientAuth: cert } }),
  } as RequestInit);
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe('request.cf trust', () => {
  const untrusted = { ...env, REQUEST_CF: 'untrusted' } as Env;

  it('a certificate in request.cf authenticates nothing where request.cf is not the edge', async () => {
    const res = await post(`/partners/${FAKE_PSP_ISPB}/webhook/pix`, untrusted, CERT);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await post(`/partners/${FAKE_PSP_ISPB}/webhook/${SECRET}/pix`, untrusted)).status).toBe(200);
  });

  it("the edge's verified certificate is accepted on Cloudflare", async () => {
    expect((await post(`/partners/${FAKE_PSP_ISPB}/webhook/pix`, env, CERT)).status).toBe(200);
  });
});
