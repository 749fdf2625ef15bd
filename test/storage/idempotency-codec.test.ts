/**
 * Stored idempotent answers are small (issue 16): deflated against a preset dictionary, with a 128-bit
 * request fingerprint, and they still replay byte for byte, still refuse a different body, and rows
 * written in the legacy form (JSON text, 64 hex digits) still replay.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  decodeAnswer,
  decodeFingerprint,
  encodeAnswer,
  encodeFingerprint,
  encodeRebuilt,
  RebuiltAnswer,
  storedKey,
} from '../../durable-objects/ledger/ledger/idempotency-codec';
import { problemCode } from '../support/cash-in';
import { cashInBody, Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';

const HASH = 'ab'.repeat(32);

describe('idempotency codec', () => {
  it('round-trips an answer and keeps a typical Cash-In answer well under its JSON size', () => {
    const answer = {
      transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
      internalCode: 'K7Q2M9X',
      externalReference: 'pedido-1',
      status: 'AWAITING_PAYMENT',
      amount: 150.25,
      payer: { name: 'Maria da Silva', document: '12345678909' },
      pixData: { copyAndPaste: '00020101021226760014br.gov.bcb.pix2554host/pix/qr/abc6304ABCD' },
      requestedAt: '2026-11-21T10:15:30.123-03:00',
    };
    const stored = encodeAnswer(answer);
    expect(decodeAnswer(stored)).toEqual(answer);
    expect(stored.byteLength).toBeLessThan(JSON.stringify(answer).length * 0.6);
  });

  it('an answer stored beside its transaction is rebuilt only from the fields it was stored with', () => {
    const fixed = { transactionId: 'a1B2c3', internalCode: 'K7Q2M9X', amount: 150.25 };
    const answer = {
      ...fixed,
      status: 'AWAITING_PAYMENT',
      pixData: { copyAndPaste: '000201...K7Q2M9X...6304ABCD' },
    };
    const stored = encodeRebuilt(answer, 'cash-in', 'K7Q2M9X', fixed);
    expect(stored[0]).toBe(0xfe); // block type 11: never the first byte of a deflated answer
    expect(stored.byteLength).toBeLessThan(encodeAnswer(answer).byteLength);
    const read = decodeAnswer(stored);
    expect(read).toBeInstanceOf(RebuiltAnswer);
    const rebuilt = read as RebuiltAnswer;
    expect({ kind: rebuilt.kind, internalCode: rebuilt.internalCode }).toEqual({
      kind: 'cash-in',
      internalCode: 'K7Q2M9X',
    });
    expect(JSON.stringify(rebuilt.answer(fixed))).toBe(JSON.stringify(answer));
    // Another transaction's fields (or a changed one) never rebuild a wrong answer.
    expect(rebuilt.answer({ ...fixed, amount: 150.26 })).toBeUndefined();
    expect(rebuilt.answer({})).toBeUndefined();
  });

  it('keeps 16 bytes of the request hash and reads the legacy 64-digit form as the same fingerprint', () => {
    const stored = encodeFingerprint(HASH);
    expect(stored.byteLength).toBe(16);
    expect(decodeFingerprint(stored)).toBe(HASH.slice(0, 32));
    expect(decodeFingerprint(HASH)).toBe(HASH.slice(0, 32));
    expect(decodeAnswer('{"a":1}')).toEqual({ a: 1 });
  });

  it('stores a BLOB answer and fingerprint, replays it exactly and refuses another body', async () => {
    const api = await Integrator.create();
    const body = cashInBody({ externalReference: 'codec-1' });
    const first = await api.post('/cash-in', body, { 'x-idempotency-key': 'k-codec-1' });
    expect(first.status).toBe(201);
    const firstText = await first.text();
    const replay = await api.post('/cash-in', body, { 'x-idempotency-key': 'k-codec-1' });
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe(firstText);
    const other = await api.post('/cash-in', { ...body, amount: 9.99 }, { 'x-idempotency-key': 'k-codec-1' });
    expect(other.status).toBe(422);
    expect(await problemCode(other)).toBe('IDEMPOTENCY_KEY_REUSED');

    const row = await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) =>
      state.storage.sql
        .exec<{ b: string; h: string; n: number; hb: number }>(
          'SELECT typeof(body) AS b, typeof(request_hash) AS h, length(body) AS n, length(request_hash) AS hb FROM idempotency_keys WHERE key = ?',
          storedKey('k-codec-1'),
        )
        .one(),
    );
    expect(row).toMatchObject({ b: 'blob', h: 'blob', hb: 16 });
    expect(row.n).toBeLessThan(firstText.length);
  });

  it('replays answers stored in the two earlier forms: text key and deflated answer, JSON text and 64 hex digits', async () => {
    const api = await Integrator.create();
    for (const form of ['deflated', 'text'] as const) {
      const key = `k-legacy-${form}`;
      const body = cashInBody({ externalReference: `codec-legacy-${form}`, includeQrCodeImage: false });
      const first = await api.post('/cash-in', body, { 'x-idempotency-key': key });
      const firstText = await first.text();
      // Rewrite the row as an object before this change stored it: the key as text, the answer itself.
      await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
        const { request_hash: hash } = state.storage.sql
          .exec<{ request_hash: ArrayBuffer }>(
            'SELECT request_hash FROM idempotency_keys WHERE key = ?',
            storedKey(key),
          )
          .one();
        const answer = JSON.parse(firstText);
        const legacyHash = `${decodeFingerprint(hash)}${'0'.repeat(32)}`;
        state.storage.sql.exec(
          'UPDATE idempotency_keys SET key = ?, body = ?, request_hash = ? WHERE key = ?',
          key,
          form === 'text' ? JSON.stringify(answer) : encodeAnswer(answer),
          form === 'text' ? legacyHash : hash,
          storedKey(key),
        );
        expect(
          state.storage.sql.exec('SELECT typeof(key) AS t FROM idempotency_keys WHERE key = ?', key).one(),
        ).toEqual({
          t: 'text',
        });
      });
      const replay = await api.post('/cash-in', body, { 'x-idempotency-key': key });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await replay.text()).toBe(firstText);
      const other = await api.post('/cash-in', { ...body, amount: 1.5 }, { 'x-idempotency-key': key });
      expect(await problemCode(other)).toBe('IDEMPOTENCY_KEY_REUSED');
    }
  });
});
