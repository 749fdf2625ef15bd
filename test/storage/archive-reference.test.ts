/**
 * externalReference stays unique forever (durable-objects/ledger/archive/reference-filter.ts): a
 * reference archived five years ago still answers 409 DUPLICATED_EXTERNAL_REFERENCE, through the
 * filter written with the archive; a fresh reference is cleared by the filter alone (no archived
 * look-up); references archived before the filter existed (an older generation) stay taken.
 */
import { runInDurableObject } from 'cloudflare:test';
import { expect, it } from 'vitest';
import {
  referenceFilterSize,
  referenceMayBeArchived,
} from '../../durable-objects/ledger/archive/reference-filter';
import { createCashIn, payCashIn, problemCode } from '../support/cash-in';
import { cashOutBody, createCashOut, deposit, settled } from '../support/cash-out';
import { admin, cashInBody, Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';
import { cashIns } from '../support/ledger-reads';
import { ageCashIns, dropReferenceFilters } from '../support/ledger-writes';

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
