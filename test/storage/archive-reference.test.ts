/**
 * externalReference stays unique forever (durable-objects/ledger/archive/reference-filter.ts): a
 * reference archived five years ago still answers 409 DUPLICATED_EXTERNAL_REFERENCE, through the
 * filter written with the archive; a fresh reference is cleared by the filter alone (no archived
 * look-up); references archived before the filter existed (an older generation) stay taken. Internal
 * codes need no filter: unique by construction (durable-objects/ledger/internal-codes.ts), no create
 * asks about its code, and codes of the older random form and of the counter are both found archived.
 */
import { runInDurableObject } from 'cloudflare:test';
import { expect, it } from 'vitest';
import { shardOf } from '../../durable-objects/ledger/archive/archive-index';
import {
  referenceFilterSize,
  referenceMayBeArchived,
} from '../../durable-objects/ledger/archive/reference-filter';
import { randomCode } from '../../src/domain/ids';
import { COUNTER_CODE } from '../../src/domain/internal-code';
import { countReads, shardsOf } from '../support/archive-registry';
import { createCashIn, payCashIn, problemCode } from '../support/cash-in';
import { cashOutBody, createCashOut, deposit, settled } from '../support/cash-out';
import { batchItems, createBatch } from '../support/cash-out-batch';
import { admin, cashInBody, Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';
import { cashIns } from '../support/ledger-reads';
import { ageCashIns, dropReferenceFilters, setOnlyCashInCode } from '../support/ledger-writes';

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

it('an archived Cash-Out reference answers 409 through the filter too', async () => {
  const api = await Integrator.create();
  await deposit(api, 100);
  const out = await createCashOut(api, { amount: 10 });
  await settled(api, out.transactionId);
  await archive(api);
  expect(await filterOf(api, (sql) => referenceFilterSize(sql, 'cash-out'))).toMatchObject({ keys: 1 });
  const view = (await (await api.get(`/cash-out/${out.transactionId}`)).json()) as {
    externalReference: string;
  };
  const res = await api.signedPost('/cash-out', cashOutBody({ externalReference: view.externalReference }));
  expect(res.status).toBe(409);
  expect(await problemCode(res)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
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

it('Cash-Outs, single and batch, on a client with archived Cash-Outs ask the registry nothing; no code filter is kept', async () => {
  const api = await Integrator.create();
  await deposit(api, 100);
  const out = await createCashOut(api, { amount: 10 });
  await settled(api, out.transactionId);
  await archive(api);
  expect(await filterOf(api, (sql) => referenceFilterSize(sql, 'cash-out/code'))).toMatchObject({ keys: 0 });
  const counted = await countReads(api);
  const single = await createCashOut(api, { amount: 10 });
  const batch = await createBatch(api, batchItems(20));
  expect(counted.registry).toBe(0);
  const codes = [single.internalCode, ...batch.items.map((item) => item.internalCode)];
  expect(new Set(codes).size).toBe(21);
  for (const code of codes) expect(code).toMatch(COUNTER_CODE);
  // With the references' filter gone, the batch asks its references once per shard, its codes never.
  await dropReferenceFilters(api.client.clientId);
  const before = counted.registry;
  const refs = batchItems(3);
  await createBatch(api, refs);
  const count = await shardsOf(api.client.clientId);
  const shards = new Set(refs.map((r) => shardOf(r.externalReference as string, count)));
  expect(counted.registry - before).toBe(shards.size);
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
