/**
 * Bench-only history seeding (durable-objects/staging/bench-seed.ts) writes what real operations
 * write: a client is seeded with pairs copied from another client's real paid Cash-In and
 * COMPLETED Cash-Out, then makes a real pair of its own through the API; the seeded and the real
 * rows of cash_ins, cash_outs and ledger_entries are equal but for fresh ids and times, the ledger's
 * balances chain through both, and limit_totals equals a recount. Off unless enabled: the gate.
 */

import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { storedCashIn } from '../../durable-objects/ledger/cash-in/cash-in-store';
import { storedCashOut } from '../../durable-objects/ledger/cash-out/cash-out-store';
import { storedEntriesOf } from '../../durable-objects/ledger/ledger/ledger-store';
import { isBenchSeedEnabled } from '../../src/config';
import { clientOfTxId } from '../../src/db/client-keys';
import { END_TO_END_ID, UUID } from '../../src/domain/ids';
import { COUNTER_CODE } from '../../src/domain/internal-code';
import { BENCH_SEED_PATH } from '../../src/staging/bench-seed';
import { createCashIn, payCashIn } from '../support/cash-in';
import { createCashOut, deposit, settled } from '../support/cash-out';
import { ADMIN_TOKEN, call, Integrator } from '../support/harness';
import { checkLimitTotals } from '../support/invariants';
import { ledgerStub } from '../support/ledger';
import { accounts as accountRows, cashIns, cashOuts, ledgerEntries } from '../support/ledger-reads';

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
  // The rows as stored, read by the stores the bench's seeding copies them through.
  const { cashIn, cashOut, entries } = await runInDurableObject(ledgerStub(clientId), (_i, state) => ({
    cashIn: storedCashIn(state.storage.sql, cashInId) as Row | undefined,
    cashOut: storedCashOut(state.storage.sql, cashOutId) as Row | undefined,
    entries: [
      ...storedEntriesOf(state.storage.sql, `cash-in:${cashInId}`),
      ...storedEntriesOf(state.storage.sql, `cash-out:${cashOutId}`),
    ].sort((a, b) => Number(a.seq) - Number(b.seq)) as Row[],
  }));
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
  expect(cashIn!.internal_code).toMatch(COUNTER_CODE);
  expect(cashOut!.internal_code).toMatch(COUNTER_CODE);
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
    const outBySeq = new Map((await cashOuts(clientId)).map((o) => [o.seq, o.transactionId]));
    const seeded = (await cashIns(clientId))
      .filter((i) => outBySeq.has(i.seq))
      .map((i) => ({ cash_in: i.transactionId, cash_out: outBySeq.get(i.seq)! }));
    expect(seeded.length).toBe(6);
    // A real pair of the seeded client itself, after its history.
    await deposit(api, 1); // the onboarded account's own deposit comes after the seeded history
    const real = await realPair(api);
    const expected = await rowsOf(clientId, real.cashInId, real.cashOutId);
    const second = await rowsOf(clientId, seeded[1]!.cash_in, seeded[1]!.cash_out);
    expect(second).toEqual(expected);

    // Seeded times: pair i requested at from + i minutes; payees alternate between 2 keys.
    const outs = (await cashOuts(clientId)).filter((o) => o.externalReference.startsWith('seed-out-'));
    expect(outs.map((o) => o.requestedAt - from)).toEqual([1, 60_001, 120_001, 180_001, 240_001, 300_001]);
    expect(new Set(outs.map((o) => o.destinationKey)).size).toBe(2);

    // One chain of balances through seeded and real entries; the account holds the last one.
    const entries = await ledgerEntries(clientId);
    const running = new Map<string, number>();
    for (const e of entries) {
      const next = (running.get(e.accountNumber) ?? 0) + (e.direction === 'CREDIT' ? e.amount : -e.amount);
      expect(e.balanceAfter).toBe(next);
      running.set(e.accountNumber, next);
    }
    const accounts = await accountRows(clientId);
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
