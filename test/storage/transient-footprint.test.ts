/**
 * What the transient rows of a transaction cost in its client's object. What one idempotency key costs in its client's object, table and indexes together, for
 * N Cash-Ins and N Cash-Outs created over HTTP under UUID keys (the database's live bytes with the keys, less without): as stored now (the key's 128-bit hash, the
 * answer beside its transaction) and, for the same answers, in the form stored before (the key as text,
 * the whole answer deflated), rewritten in place. What a transaction's webhook deliveries cost, its events
 * delivered to a URL: the database's live bytes with them, less without (the 7 days they stay hot unless
 * the archive takes them first). docs/storage-schema.md (Growth) quotes the figures.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { encodeAnswer, storedKey } from '../../durable-objects/ledger/ledger/idempotency-codec';
import { payCashIn, waitFor } from '../support/cash-in';
import { cashOutBody, deposit, settled } from '../support/cash-out';
import { cashInBody, Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';
import { deliveries } from '../support/ledger-reads';
import { newSink } from '../support/webhooks';

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

describe('transient rows: bytes per idempotency key and per webhook delivery', () => {
  it(`keeps a Cash-In's or Cash-Out's key in at most 190 B, 100 fewer than the form before (${N} of each)`, async () => {
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
        `(key ${figures.now.k} B, answer ${figures.now.a} B: Cash-In ${figures.now.byKind[0]}, Cash-Out ${figures.now.byKind[1]}); the form before: ${figures.before.perKey} B ` +
        `(key ${figures.before.k} B, answer ${figures.before.a} B: Cash-In ${figures.before.byKind[0]}, Cash-Out ${figures.before.byKind[1]})`,
    );
    expect(figures.now).toMatchObject({ n: 2 * N, k: 16 });
    expect(figures.before).toMatchObject({ n: 2 * N, k: 36 });
    // Measured 174 against 307 (2026-11-29): pages as they fill under random keys, not full ones.
    expect(figures.now.perKey).toBeLessThanOrEqual(190);
    expect(figures.before.perKey - figures.now.perKey).toBeGreaterThanOrEqual(100);
  });

  it(`a webhook delivery row, and a transaction's deliveries (${N / 2} paid Cash-Ins, ${N / 2} completed Cash-Outs)`, async () => {
    const api = await Integrator.create();
    await deposit(api, 1_000);
    const sink = newSink();
    const ids: string[] = [];
    for (let i = 0; i < N / 2; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const cashIn = await api.post(
            '/cash-in',
            cashInBody({ includeQrCodeImage: false, webhookUrl: sink.url }),
          );
          const { internalCode } = (await cashIn.json()) as { internalCode: string };
          await payCashIn(api, internalCode);
          const cashOut = await api.signedPost('/cash-out', cashOutBody({ amount: 1, webhookUrl: sink.url }));
          ids.push(((await cashOut.json()) as { transactionId: string }).transactionId);
        }),
      );
    }
    for (const id of ids) expect((await settled(api, id)).status).toBe('COMPLETED');
    const open = async () => (await deliveries(api.client.clientId)).filter((d) => d.dueAt !== null).length;
    expect(await waitFor(open, (n) => n === 0, 60_000)).toBe(0);
    const figures = await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
      const sql = state.storage.sql;
      const rows = sql
        .exec<{ n: number; delivered: number }>(
          "SELECT count(*) AS n, sum(status = 'DELIVERED') AS delivered FROM webhook_deliveries",
        )
        .one();
      const bytes = sql.databaseSize;
      sql.exec('DELETE FROM webhook_deliveries');
      return { ...rows, perRow: Math.round((bytes - sql.databaseSize) / rows.n) };
    });
    const perTransaction = Math.round((figures.perRow * figures.n) / N);
    console.log(
      `webhook deliveries: ${figures.n} for ${N} transactions (${figures.delivered} DELIVERED), ` +
        `${figures.perRow} B per row with its indexes, ${perTransaction} B per transaction`,
    );
    expect(figures).toMatchObject({ n: 2 * N, delivered: 2 * N });
    // Measured 307 (2026-11-29): a URL, the last answer's status and its times on every row.
    expect(figures.perRow).toBeLessThanOrEqual(340);
  });
});
