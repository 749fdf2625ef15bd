import { describe, expect, it } from 'vitest';
import { accountCheckDigit, newAccountNumber } from '../../src/domain/accounts';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor';
import {
  clientIdOfTxId,
  END_TO_END_ID,
  internalCodeOfTxId,
  legacyCashInTxId,
  locationKeyOfTxId,
  newCashInTxId,
  newEndToEndId,
  newLocationKey,
  newUuid,
  randomCode,
  UUID,
} from '../../src/domain/ids';
import { clientKey, legacyClientId, parseLocator } from '../../src/domain/location';
import { planPage, shapePage } from '../../src/domain/pagination';

describe('identifiers', () => {
  it('issues TxIds of 26–35 alphanumerics that start with the location key, 7-char random codes, UUIDs', () => {
    const key = newLocationKey();
    expect(key).toMatch(/^[A-Za-z0-9]{22}$/);
    const code = randomCode();
    const txid = newCashInTxId(key, code);
    expect(txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    expect(locationKeyOfTxId(txid)).toBe(key);
    // It carries its internalCode, which finds it once archived.
    expect(internalCodeOfTxId(txid)).toBe(code);
    expect(internalCodeOfTxId('abc')).toBeUndefined();
    expect(locationKeyOfTxId('abc')).toBeUndefined();
    expect(() => newCashInTxId('not-a-key', code)).toThrow(RangeError);
    // TxIds issued before location keys still name their client.
    const clientId = '0f8e2a4c-1b3d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(clientIdOfTxId(legacyCashInTxId(clientId, code))).toBe(clientId);
    expect(clientIdOfTxId(legacyCashInTxId('ffffffff-ffff-ffff-ffff-ffffffffffff', code))).toBe(
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    );
    expect(clientIdOfTxId('abc')).toBeUndefined();
    expect(clientIdOfTxId('z'.repeat(35))).toBeUndefined();
    expect(randomCode()).toMatch(/^[A-Z0-9]{7}$/);
    expect(newUuid()).toMatch(UUID);
    expect(new Set(Array.from({ length: 1000 }, () => newCashInTxId(key, code))).size).toBe(1000);
  });

  it('builds end-to-end ids as E/D + ISPB + yyyyMMddHHmm UTC + 11 alphanumerics', () => {
    const id = newEndToEndId('E', '12345678', Date.UTC(2026, 0, 2, 3, 4));
    expect(id).toHaveLength(32);
    expect(id).toMatch(END_TO_END_ID);
    expect(id.slice(0, 21)).toBe('E12345678202601020304');
    expect(newEndToEndId('D', '87654321', Date.now())[0]).toBe('D');
  });

  it('account numbers carry a mod-11 check digit', () => {
    const n = newAccountNumber();
    expect(n).toMatch(/^\d{8}-\d$/);
    expect(n.slice(-1)).toBe(accountCheckDigit(n.slice(0, 8)));
  });

  it('charge locators split into a key and an internal code; legacy keys round-trip the client id', () => {
    const key = newLocationKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(parseLocator(`${key}ABC1234`)).toEqual({ key, internalCode: 'ABC1234' });
    expect(parseLocator('short')).toBeUndefined();
    const clientId = crypto.randomUUID();
    expect(legacyClientId(clientKey(clientId))).toBe(clientId);
  });
});

describe('cursors', () => {
  const state = {
    list: 'cash-in',
    order: 'desc' as const,
    from: 1,
    to: 2,
    position: { direction: 'next' as const, time: 5, seq: 9 },
  };

  it('round-trip for the client that got them and nobody else', async () => {
    const cursor = await encodeCursor(state, 'client-a', 'secret');
    expect(await decodeCursor(cursor, 'client-a', 'secret')).toEqual(state);
    expect(await decodeCursor(cursor, 'client-b', 'secret')).toBeUndefined();
    expect(await decodeCursor(cursor, 'client-a', 'other-secret')).toBeUndefined();
  });

  it('reject any altered byte, garbage and oversized input without throwing', async () => {
    const cursor = await encodeCursor(state, 'c', 's');
    for (let i = 0; i < cursor.length; i += 3) {
      const altered = cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
      if (altered !== cursor) expect(await decodeCursor(altered, 'c', 's')).toBeUndefined();
    }
    for (const junk of ['', '.', 'a.b.c', '%%%.%%%', 'x'.repeat(600)])
      expect(await decodeCursor(junk, 'c', 's')).toBeUndefined();
  });
});

describe('keyset page planning', () => {
  it('scans the right way for each order and direction', () => {
    expect(planPage('asc', undefined)).toEqual({ comparison: null, scan: 'ASC', reverse: false });
    expect(planPage('asc', { direction: 'next', time: 0, seq: 0 })).toEqual({
      comparison: '>',
      scan: 'ASC',
      reverse: false,
    });
    expect(planPage('asc', { direction: 'prev', time: 0, seq: 0 })).toEqual({
      comparison: '<',
      scan: 'DESC',
      reverse: true,
    });
    expect(planPage('desc', { direction: 'next', time: 0, seq: 0 })).toEqual({
      comparison: '<',
      scan: 'DESC',
      reverse: false,
    });
    expect(planPage('desc', { direction: 'prev', time: 0, seq: 0 })).toEqual({
      comparison: '>',
      scan: 'ASC',
      reverse: true,
    });
  });

  it('offers next only when more rows exist and previous only after the first page', () => {
    const rows = [1, 2, 3].map((n) => ({ time: n, seq: n }));
    const first = shapePage(rows, 2, undefined);
    expect(first.items).toHaveLength(2);
    expect(first.next).toEqual({ direction: 'next', time: 2, seq: 2 });
    expect(first.previous).toBeUndefined();
    const last = shapePage(rows.slice(2), 2, { direction: 'next', time: 2, seq: 2 });
    expect(last.next).toBeUndefined();
    expect(last.previous).toEqual({ direction: 'prev', time: 3, seq: 3 });
  });
});
