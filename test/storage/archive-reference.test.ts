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
import { ledgerStub, sqlRows } from '../support/ledger';

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
  await sqlRows(
    api.client.clientId,
    'UPDATE cash_ins SET requested_at = ?, expires_at = ?',
    fiveYears,
    fiveYears + 3_600_000,
  );
  expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 1 });
  expect(await sqlRows(api.client.clientId, 'SELECT seq FROM cash_ins')).toEqual([]);

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
  await sqlRows(api.client.clientId, 'DELETE FROM archive_reference_filters');
  const second = await createCashIn(api);
  await payCashIn(api, second.internalCode as string);
  await archive(api);
  const since = await sqlRows<{ since: number }>(
    api.client.clientId,
    'SELECT DISTINCT since FROM archive_reference_filters',
  );
  const segments = await sqlRows<{ id: number }>(
    api.client.clientId,
    "SELECT id FROM archive_segments WHERE kind = 'cash-in' ORDER BY id",
  );
  expect(since).toEqual([{ since: segments[1]!.id }]);
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
