/**
 * Observability: every request leaves one structured JSON log line with its request id, and no log
 * line — request lines, unexpected-error lines, Durable Object lines — ever carries a secret, a
 * token, a signature or a full CPF/CNPJ, whatever the requests contained.
 */
import { DrizzleQueryError } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CashInCreatedBody } from '../../src/api/cash-in/create-cash-in';
import { errorFields, redact, redactText } from '../../src/infra/log';
import { waitFor } from '../support/cash-in';
import { cashOutBody, deposit, settled } from '../support/cash-out';
import { ADMIN_TOKEN, admin, call, cashInBody, Integrator, sign } from '../support/harness';
import { outboxRows } from '../support/ledger-reads';
import { withLedgerTableGone } from '../support/storage-faults';
import {
  deliveryRows,
  makeDueNow,
  newSink,
  setPlan,
  waitForDelivery,
  waitForRequests,
} from '../support/webhooks';

const CPF = '52998224725';
const CPF_FORMATTED = '529.982.247-25';
const CNPJ = '11222333000181';
const CNPJ_FORMATTED = '11.222.333/0001-81';

let lines: string[] = [];
const spies: ReturnType<typeof vi.spyOn>[] = [];

beforeEach(() => {
  lines = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    spies.push(
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      }),
    );
  }
});

afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore();
});

/** Every captured line must be free of each of these strings (and of their lowercase forms). */
function expectAbsent(secrets: Record<string, string>) {
  const all = lines.join('\n');
  for (const [name, value] of Object.entries(secrets)) {
    expect(value.length, name).toBeGreaterThan(6);
    expect(all.includes(value) || all.toLowerCase().includes(value.toLowerCase()), `${name} leaked`).toBe(
      false,
    );
  }
}

function requestLines(): Record<string, unknown>[] {
  return lines
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.message === 'request');
}

/** The signature with its last hex digit changed (always a different one: 1 in 16 ends in 0). */
const forged = (signature: string) => `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;

describe('request logs (observability)', () => {
  it('one JSON line per request, with the request id the response carries', async () => {
    const res = await call('/no-such-route');
    const requestId = res.headers.get('x-request-id');
    const logged = requestLines();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 'info',
      requestId,
      method: 'GET',
      path: '/no-such-route',
      status: 404,
    });
    expect(typeof logged[0]?.durationMs).toBe('number');
    expect(typeof logged[0]?.time).toBe('string');
  });

  it('never logs secrets, tokens, signatures or documents, on success or failure', async () => {
    const api = await Integrator.create({ name: 'Loja Sigilosa Ltda' });
    const { client, token } = api;
    const signature = await sign(client.cryptoToken, token);
    const patched = await admin(`/admin/clients/${client.clientId}`, 'PATCH', {
      blockedPayerDocuments: [CNPJ],
    });
    expect(patched.status).toBe(200);

    // Successes carrying documents in bodies and in the path.
    const created = await api.post('/cash-in', cashInBody({ payer: { name: 'Maria', document: CPF } }));
    expect(created.status).toBe(201);
    const byCnpj = await api.post(
      '/cash-in',
      cashInBody({ externalReference: CPF, payer: { name: 'Empresa', document: CNPJ } }),
    );
    expect(byCnpj.status).toBe(201);
    expect((await api.get(`/cash-in/${CPF}`)).status).toBe(200);
    // Documents as whole query values (inside ids they stay: test/observability/log-masking.test.ts).
    expect((await api.get(`/cash-in/${CNPJ}`)).status).toBe(404);
    expect((await api.get(`/cash-in?from=${CPF}`)).status).toBe(400);
    const { transactionId } = (await created.json()) as { transactionId: string };
    const paid = await api.post(`/sandbox/cash-in/${transactionId}/pay`, {
      payer: {
        name: 'Maria',
        document: CPF,
        bankData: { ispb: '60701190', branch: '0001', account: '123456-7' },
      },
    });
    expect(paid.status).toBe(200);
    await deposit(api, 1_000);
    const cashOut = await api.signedPost(
      '/cash-out',
      cashOutBody({
        payee: {
          name: 'Empresa',
          document: CNPJ,
          destination: { type: 'PIX', pixKeyType: 'CPF', pixKey: CPF },
        },
      }),
    );
    expect(cashOut.status).toBe(202);
    await settled(api, ((await cashOut.json()) as { transactionId: string }).transactionId);

    // Failures: bad credentials, a forged signature, a document in an invalid body, and an
    // unexpected 500 while a document is in flight.
    expect(
      (
        await call('/auth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: client.clientId, clientSecret: `${client.clientSecret}x` }),
        })
      ).status,
    ).toBe(401);
    expect((await call('/cash-in/x', { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
    expect(
      (await api.post('/cash-out', cashOutBody(), { digitalsignature: forged(signature) })).status,
    ).toBeGreaterThanOrEqual(400);
    expect(
      (await api.post('/cash-in', cashInBody({ payer: { name: 'X', document: CPF_FORMATTED }, amount: -1 })))
        .status,
    ).toBe(400);
    await withLedgerTableGone(client.clientId as string, 'cash_ins', async () => {
      const broken = await api.post('/cash-in', cashInBody({ payer: { name: 'Maria', document: CPF } }));
      expect(broken.status).toBe(500);
    });
    // Background work (webhooks, health observations) logs too: wait until all of it has left the
    // client's outbox, so its lines are among those read below.
    await waitFor(
      () => outboxRows(client.clientId as string),
      (rows) => rows.length === 0,
    );

    expect(requestLines().length).toBeGreaterThanOrEqual(12);
    expect(lines.some((l) => l.includes('"unhandled error"'))).toBe(true);
    expectAbsent({
      ADMIN_TOKEN,
      clientSecret: client.clientSecret,
      applicationToken: client.applicationToken,
      cryptoToken: client.cryptoToken,
      webhookSecret: client.webhookSecret,
      accessToken: token,
      accessTokenSignature: token.split('.')[2] as string,
      digitalSignature: signature,
      CPF,
      CPF_FORMATTED,
      CNPJ,
      CNPJ_FORMATTED,
    });
  });
});

describe('a full flow leaves no secret in the logs (issue 9, item 4)', () => {
  it('onboarding, login, Cash-In with a BR Code, Cash-Out to a CPF key, webhook deliveries and a retry', async () => {
    // Onboarding answers every secret once; the login answers the access token.
    const created = await admin('/admin/clients', 'POST', { name: 'Loja Fluxo Completo Ltda' });
    expect(created.status).toBe(201);
    const client = (await created.json()) as Record<string, string>;
    const login = await call('/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const signature = await sign(client.cryptoToken as string, accessToken);
    const headers = {
      authorization: `Bearer ${accessToken}`,
      applicationtoken: client.applicationToken as string,
      digitalsignature: signature,
      'content-type': 'application/json',
    };
    const post = (path: string, body: unknown) =>
      call(path, { method: 'POST', headers, body: JSON.stringify(body) });
    const ok = newSink();
    const failing = newSink();
    await setPlan(failing, [500, 200]);

    // A signed Cash-In with the payer's CPF, its BR Code, QR image and signed charge payload.
    const cashIn = await post(
      '/cash-in',
      cashInBody({ webhookUrl: ok.url, payer: { name: 'Maria', document: CPF } }),
    );
    expect(cashIn.status).toBe(201);
    const { internalCode, pixData } = (await cashIn.json()) as CashInCreatedBody & {
      pixData: { copyAndPaste: string; qrCodeImageBase64?: string };
    };
    // The location (field 26.25) ends with the 29-character locator; field 52 follows it.
    const location = /pix\/qr\/[A-Za-z0-9_-]{29}/.exec(pixData.copyAndPaste)![0];
    const charge = await call(`/${location}`);
    expect(charge.status).toBe(200);
    const jws = await charge.text();
    const payer = {
      name: 'Empresa',
      document: CNPJ,
      bankData: { ispb: '60701190', branch: '1', account: '1-1' },
    };
    expect((await post(`/sandbox/cash-in/${internalCode}/pay`, { payer })).status).toBe(200);
    const retried = await post(
      '/cash-in',
      cashInBody({ webhookUrl: failing.url, payer: { name: 'Ana', document: CPF } }),
    );
    expect(retried.status).toBe(201);

    // A Cash-Out to a CPF key, settled.
    const account = (client.accounts as unknown as { number: string; type: string }[]).find(
      (a) => a.type === 'TRANSACTIONAL',
    )!;
    expect((await post(`/sandbox/accounts/${account.number}/deposit`, { amount: 100 })).status).toBe(201);
    const cashOut = await post(
      '/cash-out',
      cashOutBody({
        webhookUrl: ok.url,
        payee: { name: 'Ana', document: CPF, destination: { type: 'PIX', pixKeyType: 'CPF', pixKey: CPF } },
      }),
    );
    expect(cashOut.status).toBe(202);

    // Deliveries: CASHIN_REQUESTED, CASHIN_PAID, CASHOUT_REQUESTED, CASHOUT_COMPLETED; and a retry.
    const delivered = await waitForRequests(ok, 4);
    await waitForRequests(failing, 1);
    const [first] = (await deliveryRows(client.clientId as string)).filter((d) => d.url === failing.url);
    await waitForDelivery(
      client.clientId as string,
      first!.event_id,
      (d) => d.attempts >= 1 && d.due_at !== null,
    );
    await makeDueNow(client.clientId as string, first!.event_id);
    await waitForRequests(failing, 2);
    expect(await (await admin(`/admin/clients/${client.clientId}/webhook-deliveries`)).text()).toContain(
      'DELIVERED',
    );

    expect(lines.length).toBeGreaterThan(10);
    expectAbsent({
      ADMIN_TOKEN,
      clientSecret: client.clientSecret as string,
      applicationToken: client.applicationToken as string,
      cryptoToken: client.cryptoToken as string,
      webhookSecret: client.webhookSecret as string,
      webhookSecretKey: (client.webhookSecret as string).slice('whsec_'.length),
      accessToken,
      accessTokenSignature: accessToken.split('.')[2] as string,
      digitalSignature: signature,
      CPF,
      CPF_FORMATTED,
      CNPJ,
      CNPJ_FORMATTED,
      brCode: pixData.copyAndPaste,
      qrImage: (pixData.qrCodeImageBase64 as string).slice(0, 80),
      chargePayload: jws,
      chargePayloadSignature: jws.split('.')[2] as string,
      ...Object.fromEntries(
        delivered.map((request, i) => [
          `webhook-signature ${i}`,
          request.headers['webhook-signature'] as string,
        ]),
      ),
    });
  });
});

describe('log redaction (second line of defence)', () => {
  it('masks tokens, secrets, signatures and documents wherever they appear in free text', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const hex = 'a'.repeat(64);
    const text = redactText(
      `Bearer ${jwt} whsec_AAAA/BBB+CC= v1.AAAAAAAAAAAA.BBBBBBBBBBBB ${hex} ${CPF} ${CNPJ} ${CPF_FORMATTED} ${CNPJ_FORMATTED}` +
        ` /cash-in/pedido-${CPF} /cash-in/cpf_${CNPJ}x ?doc=a${CPF}&n=1 {"ref":"ref${CNPJ}"}`,
    );
    for (const secret of [
      jwt,
      'whsec_AAAA',
      'v1.AAAAAAAAAAAA',
      hex,
      CPF,
      CNPJ,
      CPF_FORMATTED,
      CNPJ_FORMATTED,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('leaves identifiers alone: request ids, transaction ids, end-to-end ids, paths', () => {
    for (const text of [
      '/cash-in/Zrtka9BA8B2u0V3YgQ9H0jfHkaHhvCBv',
      'E31880826202611211234abcdefghijk',
      '0b34741a-3192-4a30-aa43-e8705cec59b6',
      '/account/34186597-4/statement',
    ]) {
      expect(redact(text)).toBe(text);
    }
  });

  it('logs a failed query without the values bound to it', () => {
    const error = new DrizzleQueryError(
      'insert into "clients" ("id", "client_secret_hash", "blocked") values (?, ?, ?)',
      ['c1', 'f'.repeat(64), JSON.stringify([CPF])],
      new Error('D1_ERROR: UNIQUE constraint failed: clients.id'),
    );
    const fields = errorFields(error);
    const logged = JSON.stringify(fields);
    expect(fields.error).toContain('Failed query: insert into "clients"');
    expect(fields.cause).toContain('UNIQUE constraint failed');
    expect(logged).not.toContain('params');
    expect(logged).not.toContain(CPF);
    expect(logged).not.toContain('f'.repeat(64));
    expect(fields.stack ?? '').not.toContain('Failed query');
  });
});
