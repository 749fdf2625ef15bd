/**
 * externalReference stays unique forever per kind: a reference archived five years ago still answers
 * 409 DUPLICATED_EXTERNAL_REFERENCE. A Cash-In's through the filter written with the archive
 * (durable-objects/ledger/archive/reference-filter.ts): a fresh one is cleared by the filter alone
 * (no archived look-up); references archived before the filter existed (an older generation) stay
 * taken. A Cash-Out's through the archive registry at every create (archive-reads.ts
 * referencesArchived), single and batch, with no filter row in the object, confirmed in its segment.
 * Internal codes need no filter: unique by construction (durable-objects/ledger/internal-codes.ts), no
 * create asks about its code, and codes of the older random form and of the counter are both found archived.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { overBudget } from '../../durable-objects/ledger/archive/archive';
import { shardOf } from '../../durable-objects/ledger/archive/archive-index';
import {
  addReferences,
  filterBytes,
  referenceFilterSize,
  referenceMayBeArchived,
} from '../../durable-objects/ledger/archive/reference-filter';
import { randomCode } from '../../src/domain/ids';
import { COUNTER_CODE } from '../../src/domain/internal-code';
import { countReads, shardsOf } from '../support/archive-registry';
import { createCashIn, payCashIn, problemCode } from '../support/cash-in';
import { cashOutBody, createCashOut, deposit, settled } from '../support/cash-out';
import { batchItems, createBatch } from '../support/cash-out-batch';
import { armCrash, crashedAt } from '../support/crash';
import { admin, cashInBody, Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { cashIns, cashOuts } from '../support/ledger-reads';
import { ageCashIns, ageCashOuts, dropReferenceFilters, setOnlyCashInCode } from '../support/ledger-writes';

const YEAR = 365 * 86_400_000;

const archive = (api: Integrator) =>
  admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
    before: new Date(Date.now() + 1).toISOString(),
  });

const filterOf = (api: Integrator, probe: (sql: SqlStorage) => unknown) =>
  runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => probe(state.storage.sql));

it('a reference archived five years ago answers 409; a fresh one is cleared by the filter alone', async () => {
  const api = await Integrator.create();
  const old = await createCashIn(api);
  await payCashIn(api, old.internalCode as string);
  // Five years ago: the row's times moved back (its list time is what the archive files it under).
  const fiveYears = Date.now() - 5 * YEAR;
  await ageCashIns(api.client.clientId, Date.now() - fiveYears);
  expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 1 });
  expect(await cashIns(api.client.clientId)).toEqual([]);

  expect(await filterOf(api, (sql) => referenceFilterSize(sql, 'cash-in'))).toMatchObject({
    keys: 1,
    ranges: 1,
  });
  const again = await api.post('/cash-in', cashInBody({ externalReference: old.externalReference }));
  expect(again.status).toBe(409);
  expect(await problemCode(again)).toBe('DUPLICATED_EXTERNAL_REFERENCE');

  // A fresh reference: the filter says no, so no archived look-up is made, and the create succeeds.
  const fresh = `fresh-${crypto.randomUUID()}`;
  expect(await filterOf(api, (sql) => referenceMayBeArchived(sql, 'cash-in', fresh))).toBe(false);
  expect(
    await filterOf(api, (sql) => referenceMayBeArchived(sql, 'cash-in', old.externalReference as string)),
  ).toBe(true);
  expect((await api.post('/cash-in', cashInBody({ externalReference: fresh }))).status).toBe(201);
});

it("the filters' bytes are kept as a running total, and the hot budget leaves them out", async () => {
  const api = await Integrator.create();
  for (let round = 0; round < 3; round++) {
    const c = await createCashIn(api);
    await payCashIn(api, c.internalCode as string);
    await archive(api);
  }
  await runInDurableObject(ledgerStub(api.client.clientId), async (instance, state) => {
    // Through the filter's own functions (reference-filter.ts), as filterOf above.
    const { sql } = state.storage;
    const blobs = referenceFilterSize(sql, 'cash-in').bytes;
    expect(blobs).toBeGreaterThan(0);
    expect(filterBytes(sql)).toBe(blobs);
    // A budget the hot rows fit but the whole file does not: not over it (the filters stay forever).
    const ledger = ledgerContextOf(instance);
    const budget = sql.databaseSize - filterBytes(sql) + 1;
    expect(budget).toBeLessThan(sql.databaseSize);
    const env = { ...ledger.env, ARCHIVE_HOT_BUDGET_BYTES: String(budget) } as Env;
    expect(overBudget({ ...ledger, env })).toBe(false);
    expect(
      overBudget({ ...ledger, env: { ...env, ARCHIVE_HOT_BUDGET_BYTES: String(budget - 2) } as Env }),
    ).toBe(true);
  });
});

it('a range past 1,024 hashes splits in place: every reference still found, the running total exact', async () => {
  const api = await Integrator.create();
  const refs = Array.from({ length: 2_600 }, (_, i) => `split-${i}-${crypto.randomUUID()}`);
  await runInDurableObject(ledgerStub(api.client.clientId), async (_instance, state) => {
    // Through the filter's own functions (reference-filter.ts), as filterOf above; a pending buffer
    // of 0, so every step merges its references into the ranges and splits them as they fill.
    const { sql } = state.storage;
    for (let i = 0; i < refs.length; i += 200)
      state.storage.transactionSync(() => addReferences(sql, 'cash-in', 1, refs.slice(i, i + 200), 0));
    const size = referenceFilterSize(sql, 'cash-in');
    expect(size.keys).toBe(refs.length);
    expect(size.ranges).toBeGreaterThanOrEqual(3);
    expect(filterBytes(sql)).toBe(size.bytes);
    for (const ref of refs) expect(referenceMayBeArchived(sql, 'cash-in', ref), ref).toBe(true);
  });
});

it('references archived before the filter began (an older generation) stay taken; the next segment starts it', async () => {
  const api = await Integrator.create();
  const first = await createCashIn(api);
  await payCashIn(api, first.internalCode as string);
  await archive(api);
  // As an older version left it: the segment archived, its reference in no filter.
  await dropReferenceFilters(api.client.clientId);
  const second = await createCashIn(api);
  await payCashIn(api, second.internalCode as string);
  await archive(api);
  // The filter starts with the second segment: only its reference is in it.
  expect(await filterOf(api, (sql) => referenceFilterSize(sql, 'cash-in'))).toMatchObject({ keys: 1 });
  for (const c of [first, second]) {
    const res = await api.post('/cash-in', cashInBody({ externalReference: c.externalReference }));
    expect(res.status, c.externalReference as string).toBe(409);
  }
  // While an older generation exists, every reference may be archived: the look-up decides.
  expect(await filterOf(api, (sql) => referenceMayBeArchived(sql, 'cash-in', 'never-used'))).toBe(true);
  expect((await api.post('/cash-in', cashInBody({ externalReference: 'never-used' }))).status).toBe(201);
});

describe('Cash-Out references: asked of the archive registry, no filter in the object', () => {
  const archivedCashOut = async (api: Integrator, externalReference: string) => {
    await deposit(api, 100);
    const out = await createCashOut(api, { amount: 10, externalReference });
    await settled(api, out.transactionId);
    // The books as the partner's (before aging and archiving: invariants.ts reads hot rows as they were made).
    await assertBooks(api);
    await ageCashOuts(api.client.clientId, 5 * YEAR);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 1 });
    expect(await cashOuts(api.client.clientId)).toEqual([]);
    return out;
  };

  it('a reference archived five years ago answers 409 on POST /cash-out and on a batch item, through the registry', async () => {
    const api = await Integrator.create();
    const reference = `payout-old-${crypto.randomUUID()}`;
    await archivedCashOut(api, reference);
    // Nothing of it in the object: no Cash-Out filter row is written.
    expect(await filterOf(api, (sql) => referenceFilterSize(sql, 'cash-out'))).toEqual({
      keys: 0,
      bytes: 0,
      ranges: 0,
    });
    const counted = await countReads(api);
    const single = await api.signedPost('/cash-out', cashOutBody({ externalReference: reference }));
    expect(single.status).toBe(409);
    expect(await problemCode(single)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
    // One call to the reference's shard, then its segment confirms it.
    expect(counted.registry).toBe(1);
    expect(counted.r2).toBeLessThanOrEqual(1);

    const items = [cashOutBody(), cashOutBody({ externalReference: reference }), cashOutBody()];
    const count = await shardsOf(api.client.clientId);
    const shards = new Set(items.map((item) => shardOf(item.externalReference as string, count))).size;
    const before = counted.registry;
    const batch = await api.signedPost('/cash-out/batch', { items });
    expect(batch.status).toBe(409);
    const problem = (await batch.json()) as { code: string; errors: Record<string, string[]> };
    expect(problem.code).toBe('DUPLICATED_EXTERNAL_REFERENCE');
    expect(Object.keys(problem.errors)).toEqual(['items[1].externalReference']);
    // At most one call per shard the batch touches, made at once.
    expect(counted.registry - before).toBe(shards);
    expect(await cashOuts(api.client.clientId)).toEqual([]);

    // A fresh reference is accepted: one registry call, nothing hit.
    const fresh = before + shards;
    await createCashOut(api, { amount: 10 });
    expect(counted.registry - fresh).toBe(1);
  });

  const api202 = async (api: Integrator, body: Record<string, unknown>) =>
    expect((await api.signedPost('/cash-out', body)).status).toBe(202);

  it('measures a Cash-Out create with and without the registry call (printed, not asserted: timing is the machine’s)', async () => {
    const without = await Integrator.create();
    await deposit(without, 100);
    const archived = await Integrator.create();
    await archivedCashOut(archived, `payout-${crypto.randomUUID()}`);
    await deposit(archived, 100);
    // Every shard woken first (a reference's shard is its hash's: 150 fresh ones reach all 64), as
    // under load; then interleaved, so both clients see the same machine.
    for (let i = 0; i < 150; i += 10)
      await Promise.all(Array.from({ length: 10 }, () => api202(archived, cashOutBody({ amount: 0.01 }))));
    const counted = await countReads(archived);
    const ms: [number[], number[]] = [[], []];
    for (let i = 0; i < 40; i++)
      for (const [k, api] of [without, archived].entries()) {
        const started = performance.now();
        expect((await api.signedPost('/cash-out', cashOutBody({ amount: 0.01 }))).status).toBe(202);
        ms[k as 0 | 1].push(performance.now() - started);
      }
    expect(counted.registry).toBe(40);
    const [plain, asking] = ms.map((list) => {
      list.sort((a, b) => a - b);
      return `p50 ${list[20]?.toFixed(1)} ms p99 ${list[39]?.toFixed(1)} ms`;
    });
    console.log(
      `POST /cash-out (40 each, interleaved): no archived Cash-Out ${plain}; one registry call each ${asking}`,
    );
  });

  it('a reference equal to another id of an archived Cash-Out (its transactionId, its internalCode) is no duplicate', async () => {
    const api = await Integrator.create();
    const out = await archivedCashOut(api, `payout-${crypto.randomUUID()}`);
    // The registry holds these ids for GET by id; the segment shows they are no reference.
    for (const id of [out.transactionId, out.internalCode as string])
      expect((await api.signedPost('/cash-out', cashOutBody({ externalReference: id }))).status, id).toBe(
        202,
      );
  });

  it('a crash between registering the ids and deleting the rows: the reference is taken at every instant', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const reference = `payout-crash-${crypto.randomUUID()}`;
    const out = await createCashOut(api, { amount: 10, externalReference: reference });
    await settled(api, out.transactionId);
    await assertBooks(api);
    await armCrash(api, 'archive.ids-registered');
    expect((await archive(api).catch(() => undefined))?.status ?? 500).toBe(500);
    expect(await crashedAt(api, 'archive.ids-registered')).toBeDefined();
    // Registered and still hot: refused by the hot row; then archived: refused through the registry.
    const again = () => api.signedPost('/cash-out', cashOutBody({ externalReference: reference }));
    expect((await again()).status).toBe(409);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 1 });
    expect(await cashOuts(api.client.clientId)).toEqual([]);
    expect((await again()).status).toBe(409);
  });
});

it('a create on a client with archived history asks the registry nothing for its code; no code filter is kept', async () => {
  const api = await Integrator.create();
  const old = await createCashIn(api);
  await payCashIn(api, old.internalCode as string);
  await archive(api);
  // The archived code is in no filter of the object: codes are unique by construction.
  expect(await filterOf(api, (sql) => referenceFilterSize(sql, 'cash-in/code'))).toEqual({
    keys: 0,
    bytes: 0,
    ranges: 0,
  });
  const counted = await countReads(api);
  for (let i = 0; i < 5; i++) {
    const created = await createCashIn(api);
    expect(created.internalCode).toMatch(COUNTER_CODE);
    expect(created.internalCode).not.toBe(old.internalCode);
  }
  expect(counted.registry).toBe(0);

  // References archived before their filter began (an older generation): every create asks the
  // registry, once, for its reference's shard only, never for its code's.
  await dropReferenceFilters(api.client.clientId);
  for (let i = 0; i < 5; i++) {
    const before = counted.registry;
    await createCashIn(api);
    expect(counted.registry - before).toBe(1);
  }
});

it('Cash-Outs, single and batch, on a client with archived Cash-Outs ask the registry for their references only; no code filter is kept', async () => {
  const api = await Integrator.create();
  await deposit(api, 100);
  const out = await createCashOut(api, { amount: 10 });
  await settled(api, out.transactionId);
  await archive(api);
  expect(await filterOf(api, (sql) => referenceFilterSize(sql, 'cash-out/code'))).toMatchObject({ keys: 0 });
  const counted = await countReads(api);
  const single = await createCashOut(api, { amount: 10 });
  // Its reference only (no Cash-Out filter: archive-reads.ts referencesArchived), never its code.
  expect(counted.registry).toBe(1);
  const items = batchItems(20);
  const batch = await createBatch(api, items);
  const codes = [single.internalCode, ...batch.items.map((item) => item.internalCode)];
  expect(new Set(codes).size).toBe(21);
  for (const code of codes) expect(code).toMatch(COUNTER_CODE);
  // The batch asks its references once per shard, its codes never.
  const count = await shardsOf(api.client.clientId);
  const shards = new Set(items.map((r) => shardOf(r.externalReference as string, count)));
  expect(counted.registry - 1).toBe(shards.size);
});

it('an archived Cash-In with a code of the older random form and one with a counter code are both found by code and TxId', async () => {
  const api = await Integrator.create();
  const older = await createCashIn(api);
  await payCashIn(api, older.internalCode as string);
  // As codes were drawn before the counter: seven of A-Z0-9, carried by its TxId.
  const oldCode = randomCode();
  const oldTxId = `${(older.transactionId as string).slice(0, 22)}${oldCode}${(older.transactionId as string).slice(29)}`;
  await setOnlyCashInCode(api.client.clientId, oldCode, oldTxId);
  const newer = await createCashIn(api);
  await payCashIn(api, newer.internalCode as string);
  expect(newer.internalCode).toMatch(COUNTER_CODE);
  const ids = [oldCode, oldTxId, newer.internalCode as string, newer.transactionId as string];
  const read = async () => {
    const out: string[] = [];
    for (const id of ids) {
      const res = await api.get(`/cash-in/${encodeURIComponent(id)}`);
      out.push(`${res.status} ${await res.text()}`);
    }
    return out;
  };
  const before = await read();
  expect(before.map((a) => a.slice(0, 3))).toEqual(['200', '200', '200', '200']);
  expect(before[0]).toBe(before[1]);
  expect(before[2]).toBe(before[3]);
  expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 2 });
  expect(await cashIns(api.client.clientId)).toEqual([]);
  const counted = await countReads(api);
  expect(await read()).toEqual(before);
  // One registry call per GET (an old TxId through the code it carries, a new one by itself).
  expect(counted.registry).toBe(ids.length);
});
