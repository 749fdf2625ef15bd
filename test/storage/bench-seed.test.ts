/**
 * Bench-only history seeding (durable-objects/staging/bench-seed.ts) writes what real operations
 * write: a client is seeded with pairs copied from another client's real paid Cash-In and
 * COMPLETED Cash-Out, then makes a real pair of its own through the API; the seeded and the real
 * rows of cash_ins, cash_outs and ledger_entries are equal but for fresh ids and times, the ledger's
 * balances chain through both, and limit_totals equals a recount. Off unless enabled: the gate.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { isBenchSeedEnabled } from '../../src/config';
import { clientOfTxId } from '../../src/db/client-keys';
import { END_TO_END_ID, UUID } from '../../src/domain/ids';
import { BENCH_SEED_PATH } from '../../src/staging/bench-seed';
import { createCashIn, payCashIn } from '../support/cash-in';
import { createCashOut, deposit, settled } from '../support/cash-out';
import { ADMIN_TOKEN, call, Integrator } from '../support/harness';
import { checkLimitTotals } from '../support/invariants';
import { sqlRows } from '../support/ledger';

type Row = Record<string, unknown>;
const PAYEE_KEY = '00000000-0000-4000-8000-000000000001';
const payee = {
  name: 'Ana Beneficiária',
  document: '12345678909',
  destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: PAYEE_KEY },
};

/** A real pair through the API: a paid Cash-In of 150.25, a COMPLETED Cash-Out of 10 to PAYEE_KEY. */
async function realPair(api: Integrator) {
  const cashIn = await createCashIn(api, { amount: 150.25 });
  expect((await payCashIn(api, cashIn.transactionId)).status).toBe('PAID');
  const out = await createCashOut(api, { amount: 10, payee, description: undefined });
  expect((await settled(api, out.transactionId)).status).toBe('COMPLETED');
  return { cashInId: cashIn.transactionId as string, cashOutId: out.transactionId as string };
}

/** A row with its identity and clock taken out: what must be equal between seeded and real. */
function shape(row: Row, ids: Row): Row {
  const out: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === 'seq' || column === 'id' || column === 'balance_after') continue;
    if (column.endsWith('_at')) out[column] = value === null ? null : 'time';
    else if (typeof value === 'string') {
      let text = value;
      for (const [name, id] of Object.entries(ids)) text = text.split(String(id)).join(`<${name}>`);
      out[column] = text;
    } else out[column] = value;
  }
  return out;
}

async function rowsOf(clientId: string, cashInId: string, cashOutId: string) {
  const [cashIn] = await sqlRows<Row>(clientId, 'SELECT * FROM cash_ins WHERE transaction_id = ?', cashInId);
  const [cashOut] = await sqlRows<Row>(
    clientId,
    'SELECT * FROM cash_outs WHERE transaction_id = ?',
    cashOutId,
  );
  const entries = await sqlRows<Row>(
    clientId,
    'SELECT * FROM ledger_entries WHERE ref IN (?, ?) ORDER BY seq',
    `cash-in:${cashInId}`,
    `cash-out:${cashOutId}`,
  );
  const ids = {
    cashIn: cashInId,
    inCode: cashIn!.internal_code,
    inRef: cashIn!.external_reference,
    inE2e: cashIn!.end_to_end_id,
    cashOut: cashOutId,
    outCode: cashOut!.internal_code,
    outRef: cashOut!.external_reference,
    outE2e: cashOut!.end_to_end_id,
  };
  expect(await clientOfTxId(env, cashInId)).toBe(clientId);
  expect(cashOutId).toMatch(UUID);
  expect(cashIn!.internal_code).toMatch(/^[A-Z0-9]{7}$/);
  expect(cashIn!.end_to_end_id).toMatch(END_TO_END_ID);
  expect(cashOut!.end_to_end_id).toMatch(END_TO_END_ID);
  expect(entries.length).toBe(2);
  return {
    cashIn: shape(cashIn!, ids),
    cashOut: shape(cashOut!, ids),
    entries: entries.map((e) => shape(e, ids)),
  };
}

const seed = (body: Record<string, unknown>) =>
  call(BENCH_SEED_PATH, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('bench history seeding', () => {
  it('writes the rows a real paid Cash-In and COMPLETED Cash-Out write, balances chained, limits counted', async () => {
    const template = await Integrator.create({ name: 'Loja Benchmark Ltda' });
    await deposit(template, 1000);
    const t = await realPair(template);
    const api = await Integrator.create({ name: 'Loja Benchmark Ltda' });
    const clientId = api.client.clientId;
    const from = Date.now() - 3600_000;
    for (const offset of [0, 3]) {
      const res = await seed({
        templateClientId: template.client.clientId,
        ...t,
        clientId,
        offset,
        count: 3,
        from,
        stepMs: 60_000,
        payees: 2,
      });
      expect(res.status, await res.text()).toBe(204);
    }
    const seeded = await sqlRows<{ cash_in: string; cash_out: string }>(
      clientId,
      'SELECT i.transaction_id AS cash_in, o.transaction_id AS cash_out FROM cash_ins i JOIN cash_outs o ON i.seq = o.seq ORDER BY i.seq',
    );
    expect(seeded.length).toBe(6);
    // A real pair of the seeded client itself, after its history.
    await deposit(api, 1); // the onboarded account's own deposit comes after the seeded history
    const real = await realPair(api);
    const expected = await rowsOf(clientId, real.cashInId, real.cashOutId);
    const second = await rowsOf(clientId, seeded[1]!.cash_in, seeded[1]!.cash_out);
    expect(second).toEqual(expected);

    // Seeded times: pair i requested at from + i minutes; payees alternate between 2 keys.
    const outs = await sqlRows<{ requested_at: number; destination_key: string }>(
      clientId,
      "SELECT requested_at, destination_key FROM cash_outs WHERE external_reference LIKE 'seed-out-%' ORDER BY seq",
    );
    expect(outs.map((o) => o.requested_at - from)).toEqual([1, 60_001, 120_001, 180_001, 240_001, 300_001]);
    expect(new Set(outs.map((o) => o.destination_key)).size).toBe(2);

    // One chain of balances through seeded and real entries; the account holds the last one.
    const entries = await sqlRows<{
      account_number: string;
      direction: string;
      amount: number;
      balance_after: number;
    }>(clientId, 'SELECT account_number, direction, amount, balance_after FROM ledger_entries ORDER BY seq');
    const running = new Map<string, number>();
    for (const e of entries) {
      const next = (running.get(e.account_number) ?? 0) + (e.direction === 'CREDIT' ? e.amount : -e.amount);
      expect(e.balance_after).toBe(next);
      running.set(e.account_number, next);
    }
    const accounts = await sqlRows<{ number: string; balance: number }>(
      clientId,
      'SELECT number, balance FROM accounts',
    );
    for (const a of accounts) expect(a.balance).toBe(running.get(a.number) ?? 0);
    await checkLimitTotals(clientId);
  });

  it('refuses history after existing entries, and is off unless staging with BENCH_SEED=on', async () => {
    const template = await Integrator.create();
    await deposit(template, 1000);
    const t = await realPair(template);
    const res = await seed({
      templateClientId: template.client.clientId,
      ...t,
      clientId: template.client.clientId,
      offset: 0,
      count: 1,
      from: Date.now() - 3600_000,
      stepMs: 1000,
      payees: 1,
    });
    expect(res.status).toBe(500);
    expect(isBenchSeedEnabled({ ENVIRONMENT: 'staging', BENCH_SEED: 'on' })).toBe(true);
    expect(isBenchSeedEnabled({ ENVIRONMENT: 'production', BENCH_SEED: 'on' })).toBe(false);
    expect(isBenchSeedEnabled({ ENVIRONMENT: 'staging' })).toBe(false);
    expect(isBenchSeedEnabled({ ENVIRONMENT: 'staging', BENCH_SEED: true })).toBe(false);
  });
});
