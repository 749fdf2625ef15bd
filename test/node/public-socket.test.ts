/**
 * The self-hosted public socket (`npm run serve`: the deploy bundle on workerd's own socket) does not
 * let a client forge `request.cf`. miniflare configures workerd to read `request.cf` from an
 * `MF-CF-Blob` request header; on Cloudflare only the edge sets `request.cf`, and here nothing does,
 * so a client could claim a verified partner certificate (`request.cf.tlsClientAuth`) and pass the
 * partner's mTLS check. The runtime drops any such `request.cf` before the gateway sees a request.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeDevVars } from '../../scripts/dev-vars.mjs';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { startTestRuntime } from './support/runtime';

const SUBJECT = 'CN=webhooks.psp.test,O=PSP de Testes S.A.,C=BR';
const ISSUER = 'CN=PSP de Testes CA,O=PSP de Testes S.A.,C=BR';
const SECRET = 'wh-0f3c5a7e9b1d4f6a8c0e2b4d6f8a1c3e';

const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-public-socket-'));
let runtime: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  const vars = writeDevVars(path.join(work, 'partner-vars'));
  // A declared real partner whose callbacks authenticate by certificate or by secret path; its API
  // is never called here (an empty callback reads nothing).
  const partners = [
    {
      ispb: FAKE_PSP_ISPB,
      name: 'PSP de Testes S.A.',
      kind: 'bcb-api-pix',
      baseUrl: 'http://127.0.0.1:9/api/v2',
      tokenUrl: 'http://127.0.0.1:9/oauth/token',
      pixKey: 'cobranca@connectpsp.example',
      webhookCertSubject: SUBJECT,
      webhookCertIssuer: ISSUER,
    },
  ];
  appendFileSync(
    vars,
    [
      `PARTNERS='${JSON.stringify(partners)}'`,
      `PARTNER_${FAKE_PSP_ISPB}_CLIENT_ID=connectpsp-test`,
      `PARTNER_${FAKE_PSP_ISPB}_CLIENT_SECRET=psp-test-secret`,
      `PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET=${SECRET}`,
      '',
    ].join('\n'),
  );
  runtime = await startTestRuntime(work, { varsFile: vars });
});

afterAll(async () => {
  await runtime?.dispose();
  rmSync(work, { recursive: true, force: true });
});

const callback = (pathname: string, headers: Record<string, string> = {}) =>
  fetch(`${runtime.url}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{"pix":[]}',
  });

it("a forged MF-CF-Blob carrying the partner's certificate does not authenticate a callback", async () => {
  const forged = {
    tlsClientAuth: {
      certPresented: '1',
      certVerified: 'SUCCESS',
      certRevoked: '0',
      certSubjectDN: SUBJECT,
      certIssuerDN: ISSUER,
    },
  };
  const res = await callback(`/partners/${FAKE_PSP_ISPB}/webhook/pix`, {
    'mf-cf-blob': JSON.stringify(forged),
  });
  expect(res.status).toBe(401);
  expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  // The route itself works: the partner's secret path is accepted.
  expect((await callback(`/partners/${FAKE_PSP_ISPB}/webhook/${SECRET}/pix`)).status).toBe(200);
  // Ordinary traffic is served as usual with the header (a header that is no JSON at all is
  // refused by workerd itself, before any worker runs: docs/operating.md, Self-hosting).
  for (const blob of [JSON.stringify(forged), '{}', '{"country":"BR"}']) {
    const res = await fetch(`${runtime.url}/openapi.json`, { headers: { 'mf-cf-blob': blob } });
    expect(res.status).toBe(200);
  }
});
