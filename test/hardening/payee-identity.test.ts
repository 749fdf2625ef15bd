/**
 * One payee however it is written (decisions §5): the per-payee daily limit and duplicate detection
 * key on the normalized destination, and the limits' running totals equal a recount of the
 * Cash-Outs they stand for, across BRT day and month boundaries.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { countTowardLimits, limitKeys, limitUsage } from '../../durable-objects/ledger/cash-out/limit-totals';
import { destinationKey } from '../../src/domain/cash-out';
import { createCashOut, deposit, settled } from '../support/cash-out';
import { admin, Integrator } from '../support/harness';
import { assertBooks, checkLimitTotals } from '../support/invariants';
import { ledgerStub } from '../support/ledger';
import { limitTotals } from '../support/ledger-reads';
import { writeIn } from '../support/ledger-writes';

const account = (branch: string, number: string) => ({
  type: 'BANK_ACCOUNT',
  bankAccount: { ispb: '60701190', branch, account: number, accountType: 'CACC' },
});
const payee = (destination: unknown) => ({ name: 'Ana', document: '12345678909', destination });

describe('payee identity (decisions §5)', () => {
  it('normalizes bank accounts and every PIX key type', () => {
    const key = (d: unknown) => destinationKey(d as Parameters<typeof destinationKey>[0]);
    const accounts = [
      ['0001', '12345-6'],
      ['1', '123456'],
      ['01', '0012345-6'],
      ['001', '00123456'],
    ].map(([b, a]) => key(account(b!, a!)));
    expect(new Set(accounts).size).toBe(1);
    expect(key(account('0', '0-x'))).toBe(key(account('0000', '0X')));
    expect(key({ type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'Ana@Example.COM' })).toBe(
      key({ type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' }),
    );
    const evp = crypto.randomUUID();
    expect(key({ type: 'PIX', pixKeyType: 'EVP', pixKey: evp.toUpperCase() })).toBe(
      key({ type: 'PIX', pixKeyType: 'EVP', pixKey: evp }),
    );
    expect(key({ type: 'PIX', pixKeyType: 'PHONE', pixKey: '+5511987654321' })).toBe(
      'PIX:PHONE:+5511987654321',
    );
    expect(key({ type: 'PIX', pixKeyType: 'CPF', pixKey: '12345678909' })).toBe('PIX:CPF:12345678909');
    // Another account, branch or bank is another payee.
    expect(key(account('0001', '12345-7'))).not.toBe(accounts[0]);
    expect(key(account('0002', '12345-6'))).not.toBe(accounts[0]);
  });

  it('four Cash-Outs to one account written four ways count as one payee for perPayeeDaily', async () => {
    const api = await Integrator.create();
    await deposit(api, 1000);
    await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { limits: { perPayeeDaily: 100 } });
    const ways = [
      ['0001', '12345-6'],
      ['1', '123456'],
      ['01', '0012345-6'],
      ['001', '00123456'],
    ];
    const outcomes = [];
    for (const [branch, number] of ways) {
      const accepted = await createCashOut(api, { amount: 100, payee: payee(account(branch!, number!)) });
      const done = await settled(api, accepted.transactionId);
      outcomes.push(done.status === 'COMPLETED' ? 'COMPLETED' : done.failure!.code);
    }
    expect(outcomes).toEqual([
      'COMPLETED',
      'PAYEE_LIMIT_EXCEEDED',
      'PAYEE_LIMIT_EXCEEDED',
      'PAYEE_LIMIT_EXCEEDED',
    ]);
    await assertBooks(api);
  });

  it('detects a duplicate transfer to one account written two ways', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const first = await createCashOut(api, { amount: 10, payee: payee(account('0001', '12345-6')) });
    const twin = await createCashOut(api, { amount: 10, payee: payee(account('1', '0012345-6')) });
    expect((await settled(api, first.transactionId)).status).toBe('COMPLETED');
    expect((await settled(api, twin.transactionId)).failure!.code).toBe('DUPLICATED_TRANSFER');
    await assertBooks(api);
  });

  it('running totals follow BRT days and months, and equal the SQL recount at every boundary', async () => {
    const api = await Integrator.create();
    const at = (iso: string) => Date.parse(iso);
    // 23:59:59.999 BRT is 02:59:59.999Z of the next UTC day; 00:00 BRT on the 1st opens a month.
    const moments = [
      at('2026-10-31T23:59:59.999-03:00'),
      at('2026-11-01T00:00:00.000-03:00'),
      at('2026-11-30T23:59:59.999-03:00'),
      at('2026-12-01T00:00:00.000-03:00'),
      at('2026-12-31T23:59:59.999-03:00'),
      at('2027-01-01T00:00:00.000-03:00'),
    ];
    expect(limitKeys(moments[0]!, 'k').map((k) => k.key)).toEqual([
      'D|2026-10-31',
      'M|2026-10',
      'P|2026-10-31|k',
    ]);
    expect(limitKeys(moments[1]!, 'k').map((k) => k.key)).toEqual([
      'D|2026-11-01',
      'M|2026-11',
      'P|2026-11-01|k',
    ]);
    expect(limitKeys(moments[5]!, 'k').map((k) => k.key)).toEqual([
      'D|2027-01-01',
      'M|2027-01',
      'P|2027-01-01|k',
    ]);
    await runInDurableObject(ledgerStub(api.client.clientId), (instance) => {
      const db = (instance as unknown as { db: Parameters<typeof limitUsage>[0] }).db;
      let seq = 0;
      for (const [i, ms] of moments.entries()) {
        for (const k of ['ACC:1:2:3', 'PIX:EVP:x']) {
          seq += 1;
          writeIn.addCashOut(db, {
            transactionId: `t${seq}`,
            internalCode: `c${seq}`,
            externalReference: `r${seq}`,
            status: 'COMPLETED',
            stage: 'DONE',
            amount: (i + 1) * 100,
            payeeName: 'A',
            payeeDocument: '12345678909',
            destination: {} as never,
            destinationKey: k,
            partnerIspb: '00000000',
            requestedAt: ms,
          });
          countTowardLimits(db, ms, k, (i + 1) * 100);
        }
      }
      // The day after a boundary starts from zero; the month keeps what its days added.
      expect(limitUsage(db, moments[1]!, 'PIX:EVP:x')).toEqual({ day: 400, month: 1000, payeeDay: 200 });
      expect(limitUsage(db, moments[2]!, 'PIX:EVP:x')).toEqual({ day: 600, month: 1000, payeeDay: 300 });
      expect(limitUsage(db, moments[5]!, 'ACC:1:2:3')).toEqual({ day: 1200, month: 1200, payeeDay: 600 });
    });
    const stored = await limitTotals(api.client.clientId);
    expect(stored).toHaveLength(6 + 4 + 12);
    await checkLimitTotals(api.client.clientId);
  });
});
