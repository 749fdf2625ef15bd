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
import { cashOutBody, deposit } from '../support/cash-out';
import { cashInBody, Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';

const HASH = 'ab'.repeat(32);

const N = 200;
type Row = {
  key: ArrayBuffer;
  request_hash: ArrayBuffer;
  status: number;
  body: ArrayBuffer;
  created_at: number;
};

/** The mean stored key and answer of every row. */
function lengths(sql: SqlStorage) {
  return sql
    .exec<{ k: number; a: number; n: number }>(
      'SELECT avg(length(key)) AS k, round(avg(length(body))) AS a, count(*) AS n FROM idempotency_keys',
    )
    .one();
}

/** The mean answer of each kind as stored now (its second byte names the kind: 0 Cash-In, 1 Cash-Out). */
const answersByKind = (sql: SqlStorage) =>
  sql
    .exec<{ kind: number; a: number }>(
      'SELECT unicode(CAST(substr(body, 2, 1) AS TEXT)) AS kind, round(avg(length(body))) AS a FROM idempotency_keys GROUP BY kind ORDER BY kind',
    )
    .toArray()
    .map((r) => r.a);

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

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
    // With the context its request brought (kept once per client, named by index): only that one rebuilds it.
    const context = { index: 3, text: 'host/pix/qr/abc\nLOJA TESTE\nSAO PAULO' };
    const hosted = {
      ...answer,
      pixData: { copyAndPaste: '0002…host/pix/qr/abcK7Q2M9X…LOJA TESTE…SAO PAULO…6304ABCD' },
    };
    const inContext = decodeAnswer(
      encodeRebuilt(hosted, 'cash-in', 'K7Q2M9X', fixed, context),
    ) as RebuiltAnswer;
    expect(inContext.context).toBe(3);
    expect(JSON.stringify(inContext.answer(fixed, context.text))).toBe(JSON.stringify(hosted));
    expect(inContext.answer(fixed, 'host/pix/qr/abc\nLOJA NOVA\nSAO PAULO')).toBeUndefined();
  });

  it('a replay whose transaction no longer gives back the fields it was stored with answers 500, never another answer', async () => {
    const api = await Integrator.create();
    const body = cashInBody({ externalReference: 'codec-damaged', includeQrCodeImage: false });
    const first = await api.post('/cash-in', body, { 'x-idempotency-key': 'k-damaged' });
    expect(first.status).toBe(201);
    // Damage a fixed field of the stored Cash-In: its amount never changes.
    await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
      state.storage.sql.exec(
        "UPDATE cash_ins SET amount = amount + 1 WHERE external_reference = 'codec-damaged'",
      );
    });
    const replay = await api.post('/cash-in', body, { 'x-idempotency-key': 'k-damaged' });
    expect(replay.status).toBe(500);
    expect(await problemCode(replay)).toBe('INTERNAL_ERROR');
    // The object still answers: the next request with another key runs.
    const next = await api.post('/cash-in', cashInBody({ includeQrCodeImage: false }), {
      'x-idempotency-key': 'k-next',
    });
    expect(next.status).toBe(201);
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

/**
 * What one key costs in its client's object, table and indexes together, for N Cash-Ins and N Cash-Outs
 * created over HTTP under UUID keys (the database's live bytes with the keys, less without): as stored now
 * and, for the same answers, in the form stored before (the key as text, the whole answer deflated),
 * rewritten in place. docs/storage-schema.md (Idempotency keys and delivery lists) quotes the figures.
 */
describe('idempotency keys: bytes per key', () => {
  it(`keeps a Cash-In's or Cash-Out's key in at most 170 B, 100 fewer than the form before (${N} of each)`, async () => {
    const api = await Integrator.create();
    await deposit(api, 1_000);
    const answers = new Map<string, unknown>();
    for (let i = 0; i < N; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          const inKey = crypto.randomUUID();
          const cashIn = await api.post('/cash-in', cashInBody({ includeQrCodeImage: false }), {
            'x-idempotency-key': inKey,
          });
          expect(cashIn.status).toBe(201);
          answers.set(inKey, await cashIn.json());
          const outKey = crypto.randomUUID();
          const cashOut = await api.signedPost('/cash-out', cashOutBody({ amount: 1 + ((i + j) % 3) }), {
            'x-idempotency-key': outKey,
          });
          expect(cashOut.status).toBe(202);
          answers.set(outKey, await cashOut.json());
        }),
      );
    }
    const figures = await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
      const sql = state.storage.sql;
      const rows = sql.exec<Row>('SELECT * FROM idempotency_keys').toArray();
      const now = { bytes: sql.databaseSize, ...lengths(sql), byKind: answersByKind(sql) };
      sql.exec('DELETE FROM idempotency_keys');
      const none = sql.databaseSize;
      // The same answers as an object before this change stored them: the key as text, the answer whole.
      const keyOf = new Map([...answers.keys()].map((key) => [hex(storedKey(key)), key]));
      const wholeByKind = [0, 0]; // the answers' bytes as stored before: Cash-Ins', Cash-Outs'
      for (const row of rows) {
        const key = keyOf.get(hex(new Uint8Array(row.key))) as string;
        const kind = new Uint8Array(row.body)[1] as 0 | 1;
        wholeByKind[kind] = (wholeByKind[kind] ?? 0) + encodeAnswer(answers.get(key)).byteLength / N;
        sql.exec(
          'INSERT INTO idempotency_keys (key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?)',
          key,
          row.request_hash,
          row.status,
          encodeAnswer(answers.get(key)),
          row.created_at,
        );
      }
      const before = { bytes: sql.databaseSize, ...lengths(sql), byKind: wholeByKind.map(Math.round) };
      const perKey = (bytes: number) => Math.round((bytes - none) / rows.length);
      return {
        now: { ...now, perKey: perKey(now.bytes) },
        before: { ...before, perKey: perKey(before.bytes) },
      };
    });
    console.log(
      `idempotency keys (${2 * N}: Cash-Ins and Cash-Outs): ${figures.now.perKey} B per key in pages ` +
        `(key ${figures.now.k} B, answer ${figures.now.a} B: Cash-In ${figures.now.byKind[0]}, ` +
        `Cash-Out ${figures.now.byKind[1]}); the form before: ${figures.before.perKey} B ` +
        `(key ${figures.before.k} B, answer ${figures.before.a} B: Cash-In ${figures.before.byKind[0]}, Cash-Out ${figures.before.byKind[1]})`,
    );
    expect(figures.now).toMatchObject({ n: 2 * N, k: 16 });
    expect(figures.before).toMatchObject({ n: 2 * N, k: 36 });
    // Measured 154 against 307 (2026-11-29; 174 before the BR Code's context was kept once per client):
    // pages as they fill under random keys, not full ones.
    expect(figures.now.perKey).toBeLessThanOrEqual(170);
    expect(figures.before.perKey - figures.now.perKey).toBeGreaterThanOrEqual(100);
  });
});
