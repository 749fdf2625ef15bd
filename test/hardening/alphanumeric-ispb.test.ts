/**
 * Alphanumeric ISPBs (docs/contract.md, Amounts and documents): bacen/pix-api 2.9.0 writes an ISPB
 * as `^[0-9A-Z]{8}$`. Every place an ISPB comes in accepts exactly that, and refuses anything
 * else (lower case included) with 400 VALIDATION_ERROR naming the field: a payee's bank on a
 * Cash-Out, a payer's bank on a sandbox payment, a rebalance, the operator's queries and path
 * parameters, health observations, partner declarations; the OpenAPI document says the same.
 */
import { describe, expect, it } from 'vitest';
import { parseObservation } from '../../src/health/windows/observation';
import { declaredPartners } from '../../src/partners/config';
import { expectDocumented, servedDocument } from '../openapi/conformance';
import { createCashIn, payCashIn } from '../support/cash-in';
import { cashOutBody, deposit, getCashOut, settled } from '../support/cash-out';
import { admin, Integrator } from '../support/harness';

const ALNUM = '1A2B3C4D';
const REFUSED = ['1a2b3c4d', '1A2B3C4', '1A2B3C4D5', '1A2B-C4D', '1Ä2B3C4D'];

type Problem = { code: string; errors: Record<string, string[]> };

async function expectRefused(res: Response, field: string) {
  expect(res.status).toBe(400);
  const body = (await res.json()) as Problem;
  expect(body.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(body.errors)).toEqual([field]);
  expect(body.errors[field]?.join(' ')).toMatch(/8 digits or upper-case letters/);
}

const toBank = (ispb: string) =>
  cashOutBody({
    amount: 10,
    payee: {
      name: 'Nova Ltda',
      document: '12ABC34501DE35',
      destination: { type: 'BANK_ACCOUNT', bankAccount: { ispb, branch: '0001', account: '12345-6' } },
    },
  });

describe('alphanumeric ISPB through the API', () => {
  it('pays a payee at an alphanumeric-ISPB bank; the answers conform to the document', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const accepted = await expectDocumented(
      await api.signedPost('/cash-out', toBank(ALNUM)),
      'post',
      '/cash-out',
    );
    const done = await settled(api, accepted?.transactionId);
    expect(done.status).toBe('COMPLETED');
    const read = await getCashOut(api, accepted?.transactionId);
    expect(read.payee.destination).toMatchObject({ type: 'BANK_ACCOUNT', bankAccount: { ispb: ALNUM } });
    await expectDocumented(await api.get(`/cash-out/${accepted?.transactionId}`), 'get', '/cash-out/{id}');
    for (const ispb of REFUSED)
      await expectRefused(
        await api.signedPost('/cash-out', toBank(ispb)),
        'payee.destination.bankAccount.ispb',
      );
  });

  it("a payer's bank with an alphanumeric ISPB pays a Cash-In (sandbox); others are refused", async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api);
    const bankData = (ispb: string) => ({ payer: { bankData: { ispb, branch: '1', account: '99-1' } } });
    for (const ispb of REFUSED)
      await expectRefused(
        await api.post(`/sandbox/cash-in/${created.transactionId}/pay`, bankData(ispb)),
        'payer.bankData.ispb',
      );
    const paid = (await payCashIn(api, created.transactionId, bankData(ALNUM))) as unknown as {
      payer: { bankData: { ispb: string } };
    };
    expect(paid.payer.bankData.ispb).toBe(ALNUM);
  });

  it('a rebalance names its partner by a well-formed ISPB: an alphanumeric one is no partner here', async () => {
    const api = await Integrator.create();
    for (const ispb of REFUSED)
      await expectRefused(await api.signedPost('/account/rebalance/top-up', { amount: 1, ispb }), 'ispb');
    // Well formed, it meets the field's own rule: one of the client's partners.
    const unknown = await api.signedPost('/account/rebalance/top-up', { amount: 1, ispb: ALNUM });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as Problem).errors).toEqual({
      ispb: ['ispb must be one of the client settlement partners'],
    });
  });

  it("the operator's queries and path parameters take an alphanumeric ISPB, refuse the rest", async () => {
    const unapplied = await admin(`/admin/unapplied?ispb=${ALNUM}`);
    expect(unapplied.status).toBe(200);
    expect(((await unapplied.json()) as { items: unknown[] }).items).toEqual([]);
    expect((await admin(`/admin/reconciliation?date=2026-11-20&ispb=${ALNUM}`)).status).toBe(404);
    for (const ispb of REFUSED) {
      await expectRefused(await admin(`/admin/unapplied?ispb=${encodeURIComponent(ispb)}`), 'ispb');
      await expectRefused(
        await admin(`/admin/reconciliation?date=2026-11-20&ispb=${encodeURIComponent(ispb)}`),
        'ispb',
      );
      await expectRefused(
        await admin(`/admin/partners/${encodeURIComponent(ispb)}/webhook`, 'PUT', {
          baseUrl: 'https://api.example.com',
        }),
        'ispb',
      );
      await expectRefused(
        await admin(`/admin/partners/${encodeURIComponent(ispb)}/faults`, 'POST', {
          operation: 'CASH_IN',
          failureRate: 1,
          minutes: 1,
        }),
        'ispb',
      );
    }
    // Well formed but no partner here: not found, as before.
    const webhook = await admin(`/admin/partners/${ALNUM}/webhook`, 'PUT', {
      baseUrl: 'https://api.example.com',
    });
    expect(webhook.status).toBe(404);
    const faults = await admin(`/admin/partners/${ALNUM}/faults`, 'DELETE');
    expect(faults.status).toBe(404);
  });

  it('health observations carry alphanumeric partner and institution ISPBs', async () => {
    const base = {
      at: '2026-11-20T12:00:00.000Z',
      clientId: 'c1',
      operation: 'CASH_OUT',
      partnerIspb: ALNUM,
      institutionIspb: 'Z9Y8X7W6',
      event: 'SETTLED',
    };
    const parsed = parseObservation(base);
    expect(parsed.ok).toBe(true);
    for (const ispb of REFUSED) {
      expect(parseObservation({ ...base, partnerIspb: ispb }).ok).toBe(false);
      expect(parseObservation({ ...base, institutionIspb: ispb }).ok).toBe(false);
    }
    const imported = await admin('/admin/health/observations', 'POST', {
      observations: [{ id: `alnum-${crypto.randomUUID()}`, ...base }],
    });
    expect(imported.status).toBe(202);
    const refused = await admin('/admin/health/observations', 'POST', {
      observations: [{ id: `alnum-${crypto.randomUUID()}`, ...base, institutionIspb: '1a2b3c4d' }],
    });
    expect(refused.status).toBe(400);
  });

  it('a partner may be declared under an alphanumeric ISPB; any other form refuses to start', () => {
    const partner = { ispb: ALNUM, name: 'Banco Novo', branch: '0001', kind: 'sandbox' };
    const env = { ENVIRONMENT: 'staging', PARTNERS: JSON.stringify([partner]) };
    expect(declaredPartners(env).map((p) => p.ispb)).toEqual([ALNUM]);
    for (const ispb of REFUSED)
      expect(() =>
        declaredPartners({ ENVIRONMENT: 'staging', PARTNERS: JSON.stringify([{ ...partner, ispb }]) }),
      ).toThrow('PARTNERS[0].ispb must be 8 digits or upper-case letters');
  });

  it('the OpenAPI document states the standard pattern for every ISPB', async () => {
    const text = JSON.stringify(await servedDocument());
    expect(text.includes('"^\\\\d{8}$"'), 'an ISPB pattern of digits only is left').toBe(false);
    expect(text.includes('"^[0-9A-Z]{8}$"')).toBe(true);
  });
});

describe('alphanumeric ISPB in onboarding data', () => {
  it("a client's partners: a malformed ISPB names the rule, a well-formed unknown one the partner rule", async () => {
    const create = async (ispb: string) => {
      const res = await admin('/admin/clients', 'POST', { name: 'Loja Nova', partners: [ispb] });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Problem;
      expect(body.code).toBe('VALIDATION_ERROR');
      return body.errors;
    };
    for (const ispb of REFUSED)
      expect(Object.values(await create(ispb)).flat()).toEqual([
        'each partner must be an ISPB: 8 digits or upper-case letters',
      ]);
    expect(Object.values(await create(ALNUM)).flat()).toEqual(['unknown settlement partner ISPB']);
  });
});
