/**
 * Every body is read through a counting reader that stops at its cap, declared length or not: a
 * chunked upload of 100 MB with no Content-Length, to an unauthenticated route, an operator route, a
 * partner callback, an authenticated client route and the console sign-in, is refused with the
 * route's size answer after the gateway has pulled little more than the cap, never the whole body.
 * (Peak memory of the real workerd process under concurrent uploads: test/node/body-memory.test.ts.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_BODY_BYTES } from '../../src/api/cash-out-batch/create-cash-out-batch';
import { ROUTES } from '../../src/api/routes';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { ADMIN_TOKEN, BASE, call, Integrator } from '../support/harness';
import { SECRET } from '../support/partner-psp';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;
/** The API's cap and the console form's. */
const API_CAP = 64 * 1024;
const FORM_CAP = 4096;
/** What may be in flight in the runtime's pipes besides what the reader counted. */
const SLACK = 4 * MB;

/** A chunked body of `bytes` (no Content-Length) that counts how much of it was pulled. */
function counted(bytes: number, fill = 0x20): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= bytes) return controller.close();
      const size = Math.min(CHUNK, bytes - pulled);
      pulled += size;
      controller.enqueue(new Uint8Array(size).fill(fill));
    },
  });
  return { body, pulled: () => pulled };
}

async function send(path: string, headers: Record<string, string>, bytes = 100 * MB) {
  const upload = counted(bytes);
  const res = await call(path, { method: 'POST', headers, body: upload.body });
  const text = await res.text();
  return { status: res.status, text, pulled: upload.pulled() };
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe('chunked bodies of 100 MB are cut at the cap', () => {
  it('POST /auth/token (unauthenticated)', async () => {
    const r = await send('/auth/token', JSON_TYPE);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: { body: [`body must be at most ${API_CAP} bytes`] },
    });
    expect(r.pulled).toBeLessThan(API_CAP + SLACK);
  });

  it('a partner callback on its secret path', async () => {
    const r = await send(`/partners/${FAKE_PSP_ISPB}/webhook/${SECRET}/pix`, JSON_TYPE);
    expect(r.status).toBe(400);
    expect(r.pulled).toBeLessThan(API_CAP + SLACK);
  });

  it('an operator route', async () => {
    const r = await send('/admin/clients', { ...JSON_TYPE, authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(r.status).toBe(400);
    expect(r.pulled).toBeLessThan(API_CAP + SLACK);
  });

  it('an authenticated client route', async () => {
    const api = await Integrator.create();
    const r = await send('/cash-in', api.headers());
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(r.pulled).toBeLessThan(API_CAP + SLACK);
  });

  it('an optional body (sandbox action)', async () => {
    const api = await Integrator.create();
    const r = await send(`/sandbox/cash-in/${crypto.randomUUID()}/pay`, api.headers());
    expect(r.status).toBe(400);
    expect(r.pulled).toBeLessThan(API_CAP + SLACK);
  });

  it('the console sign-in form (read before any check of the token)', async () => {
    const r = await send('/admin/console/login', {
      'content-type': 'application/x-www-form-urlencoded',
      origin: BASE,
    });
    expect(r.status).toBe(401);
    expect(r.pulled).toBeLessThan(FORM_CAP + SLACK);
  });

  it('a body just under the cap is still read whole, chunked', async () => {
    const upload = counted(API_CAP - 10, 0x20);
    const res = await call('/auth/token', { method: 'POST', headers: JSON_TYPE, body: upload.body });
    // All spaces: read whole (the cap was not hit), then refused as no JSON.
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: { body: ['body must be valid JSON'] } });
    expect(upload.pulled()).toBe(API_CAP - 10);
  });
});

describe('every route that takes a body, fuzzed with chunked bodies up to 100 MB', () => {
  it('answers < 500 having pulled at most the cap (plus what is in flight)', async () => {
    const api = await Integrator.create();
    const withBody = ROUTES.map((r) => r.spec).filter((s) => s.method !== 'get' && s.method !== 'delete');
    expect(withBody.length).toBeGreaterThan(15);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withBody),
        // Log-uniform sizes: as many small bodies as huge ones, up to 100 MB.
        fc.double({ min: 0, max: Math.log(100 * MB), noNaN: true }).map((x) => Math.floor(Math.exp(x))),
        fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain'),
        async (spec, bytes, type) => {
          const path = spec.path.replace(/\{(\w+)\}/g, (_, name) =>
            name === 'ispb' ? FAKE_PSP_ISPB : name === 'secret' ? SECRET : crypto.randomUUID(),
          );
          const headers = path.startsWith('/admin')
            ? { 'content-type': type, authorization: `Bearer ${ADMIN_TOKEN}` }
            : api.headers({ 'content-type': type });
          const upload = counted(bytes);
          const res = await call(path, { method: spec.method.toUpperCase(), headers, body: upload.body });
          await res.arrayBuffer();
          expect(res.status, `${spec.method} ${spec.path} with ${bytes} bytes`).toBeLessThan(500);
          // A batch of 1,000 Cash-Outs has its own cap; every other body the API's.
          const cap = spec.operationId === 'createCashOutBatch' ? MAX_BATCH_BODY_BYTES : API_CAP;
          expect(upload.pulled()).toBeLessThan(cap + SLACK);
        },
      ),
      { numRuns: 60 },
    );
  });
});
