/**
 * POST /cash-out/batch and GET /cash-out/batch/{batchId} through real HTTP: all-or-nothing
 * validation named by item index, 409 by index for repeated or used references, batch idempotency,
 * and each item an ordinary Cash-Out with limits and approval applied in item order.
 */
import { describe, expect, it } from 'vitest';
import { cashOutBody, createCashOut, deposit, getCashOut, settled } from '../../support/cash-out';
import { batchItems, batchSettled, createBatch, getBatch } from '../../support/cash-out-batch';
import { admin, Integrator } from '../../support/harness';
import { assertBooks } from '../../support/invariants';
import { cashOuts } from '../../support/ledger-reads';
import { outboxEvents } from '../../support/webhooks';

const cashOutCount = async (api: Integrator) => (await cashOuts(api.client.clientId)).length;

describe('POST /cash-out/batch', () => {
  it('accepts 3 items as 3 ordinary Cash-Outs, each completed, with its own events; the batch counts them', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const items = batchItems(3);
    const accepted = await createBatch(api, items);
    expect(accepted).toMatchObject({ count: 3, amount: 3.03 });
    expect(accepted.items.map((i) => [i.index, i.externalReference, i.status])).toEqual(
      items.map((item, i) => [i, item.externalReference, 'PROCESSING']),
    );
    const done = await batchSettled(api, accepted.batchId);
    expect(done).toEqual({
      batchId: accepted.batchId,
      createdAt: accepted.createdAt,
      count: 3,
      amount: 3.03,
      byStatus: { PROCESSING: 0, PENDING: 0, COMPLETED: 3, CANCELLED: 0, REFUNDED: 0 },
    });
    for (const item of accepted.items) {
      for (const id of [item.transactionId, item.internalCode, item.externalReference])
        expect((await getCashOut(api, id)).transactionId).toBe(item.transactionId);
      expect((await outboxEvents(api.client.clientId, item.transactionId)).map((e) => e.eventType)).toEqual([
        'CASHOUT_REQUESTED',
        'CASHOUT_COMPLETED',
      ]);
    }
    const list = await api.get('/cash-out?from=2020-01-01&to=2099-12-31');
    expect(((await list.json()) as { items: unknown[] }).items).toHaveLength(3);
    const books = await assertBooks(api);
    const paid = books.entries.filter((e) => e.type === 'PIX_OUT').map((e) => e.amount);
    expect(paid.sort()).toEqual([100, 101, 102]);
  });

  it('refuses the whole batch with every bad field named by index, and creates nothing', async () => {
    const api = await Integrator.create();
    const items = batchItems(4);
    items[1] = { ...items[1], amount: -5 };
    items[3] = { ...items[3], payee: { name: 'X', document: '123', destination: { type: 'PIX' } } };
    const res = await api.signedPost('/cash-out/batch', { items });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.errors).sort()).toEqual(
      expect.arrayContaining(['items[1].amount', 'items[3].payee.document']),
    );
    expect(Object.keys(body.errors).every((k) => /^items\[(1|3)\]\./.test(k))).toBe(true);
    expect(await cashOutCount(api)).toBe(0);
  });

  it('refuses an empty batch, more than 1,000 items, a bad webhook target and an unsigned batch', async () => {
    const api = await Integrator.create();
    const empty = await api.signedPost('/cash-out/batch', { items: [] });
    expect(empty.status).toBe(400);
    expect(Object.keys(((await empty.json()) as { errors: object }).errors)).toEqual(['items']);
    const tooMany = await api.signedPost('/cash-out/batch', { items: batchItems(1_001) });
    expect(tooMany.status).toBe(400);
    expect(Object.keys(((await tooMany.json()) as { errors: object }).errors)).toEqual(['items']);
    const hook = batchItems(2, (i) => (i === 1 ? { webhookUrl: 'ftp://loja.example.com/hook' } : {}));
    const refused = await api.signedPost('/cash-out/batch', { items: hook });
    expect(refused.status).toBe(400);
    expect(Object.keys(((await refused.json()) as { errors: object }).errors)).toEqual([
      'items[1].webhookUrl',
    ]);
    const unsigned = await api.post('/cash-out/batch', { items: batchItems(1) });
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { code: string }).code).toBe('DIGITAL_SIGNATURE_REQUIRED');
    expect(await cashOutCount(api)).toBe(0);
  });

  it('reads 1,000 items of the largest shape (over 2 MB), and refuses a body over 4 MiB', async () => {
    const api = await Integrator.create();
    const large = batchItems(1_000, (i) => ({
      description: '語'.repeat(140),
      webhookUrl: `https://loja.example.com.br/${'w'.repeat(2_000)}`,
      payee: {
        name: 'ã'.repeat(140),
        document: '12345678909',
        destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
      },
      ...(i === 999 && { amount: 0 }),
    }));
    const body = JSON.stringify({ items: large });
    expect(new TextEncoder().encode(body).byteLength).toBeGreaterThan(2_000_000);
    const res = await api.signedPost('/cash-out/batch', { items: large });
    expect(res.status).toBe(400);
    // Read whole and validated: the one bad item is named, not the body's size.
    expect(Object.keys(((await res.json()) as { errors: object }).errors)).toEqual(['items[999].amount']);
    const huge = await api.signedPost('/cash-out/batch', {
      items: batchItems(1, () => ({ description: 'x'.repeat(4 * 1024 * 1024) })),
    });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { errors: Record<string, string[]> }).errors.body![0]).toMatch(/at most/);
    expect(await cashOutCount(api)).toBe(0);
  });

  it('answers 409 naming every index whose reference is repeated in the batch or already used', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const used = cashOutBody();
    expect((await api.signedPost('/cash-out', used)).status).toBe(202);
    const items = batchItems(5);
    items[3] = { ...items[3], externalReference: items[0]!.externalReference };
    items[2] = { ...items[2], externalReference: used.externalReference };
    const res = await api.signedPost('/cash-out/batch', { items });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { code: string; errors: Record<string, string[]>; detail: string };
    expect(body.code).toBe('DUPLICATED_EXTERNAL_REFERENCE');
    expect(Object.keys(body.errors).sort()).toEqual([
      'items[0].externalReference',
      'items[2].externalReference',
      'items[3].externalReference',
    ]);
    expect(body.errors['items[2].externalReference']![0]).toMatch(/already used/);
    expect(body.errors['items[3].externalReference']![0]).toMatch(/repeated .*items\[0\]/);
    expect(await cashOutCount(api)).toBe(1);
  });

  it('replays the batch for the same key and body, refuses the key with another body, creates each item once', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const items = batchItems(3);
    const key = { 'x-idempotency-key': `batch-${crypto.randomUUID()}` };
    const first = await createBatch(api, items, key);
    const again = await api.signedPost('/cash-out/batch', { items }, key);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(first);
    const other = await api.signedPost('/cash-out/batch', { items: batchItems(3) }, key);
    expect(((await other.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Without a key the same items are refused by their references: never created twice.
    const unkeyed = await api.signedPost('/cash-out/batch', { items });
    expect(unkeyed.status).toBe(409);
    expect(await cashOutCount(api)).toBe(3);
    await batchSettled(api, first.batchId);
    await assertBooks(api);
  });

  it('applies limits and approval in item order, exactly as one by one', async () => {
    const api = await Integrator.create();
    await deposit(api, 1_000);
    await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', {
      limits: { perTransaction: 300, daily: 700 },
      approvalThreshold: 250,
    });
    // 200 ok, 400 above the maximum, 300 pending approval (reserved: counts toward the day),
    // 150 ok (650), 100 over the day (750), 50 ok (700).
    const amounts = [200, 400, 300, 150, 100, 50];
    const accepted = await createBatch(
      api,
      amounts.map((amount) => cashOutBody({ amount })),
    );
    const ids = accepted.items.map((i) => i.transactionId);
    const outcomes = await Promise.all(
      ids.map((id) => settled(api, id, ['COMPLETED', 'CANCELLED', 'PENDING'])),
    );
    expect(outcomes.map((o) => o.failure?.code ?? o.status)).toEqual([
      'COMPLETED',
      'AMOUNT_ABOVE_MAXIMUM',
      'PENDING',
      'COMPLETED',
      'DAILY_LIMIT_EXCEEDED',
      'COMPLETED',
    ]);
    expect((await getBatch(api, accepted.batchId)).byStatus).toEqual({
      PROCESSING: 0,
      PENDING: 1,
      COMPLETED: 3,
      CANCELLED: 2,
      REFUNDED: 0,
    });
    await assertBooks(api);
  });

  it('cancels a repeated payee and amount as DUPLICATED_TRANSFER in item order, not counting cancelled ones', async () => {
    const api = await Integrator.create();
    await deposit(api, 150);
    const payee = () => ({
      name: 'P',
      document: '12345678909',
      destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
    });
    const [p, q, r] = [payee(), payee(), payee()];
    // Before the batch: R is paid 1.00 (149.00 left).
    const before = await createCashOut(api, { amount: 1, payee: r });
    expect((await settled(api, before.transactionId)).status).toBe('COMPLETED');
    const accepted = await createBatch(api, [
      cashOutBody({ amount: 200, payee: p }), // more than the balance
      cashOutBody({ amount: 100, payee: q }), // paid (49.00 left)
      cashOutBody({ amount: 200, payee: p }), // its twin was cancelled: not a duplicate, short again
      cashOutBody({ amount: 100, payee: q }), // twin of item 1
      cashOutBody({ amount: 1, payee: r }), // twin of the Cash-Out before the batch
      cashOutBody({ amount: 2, payee: r }), // another amount: paid
    ]);
    const outcomes = await Promise.all(accepted.items.map((i) => settled(api, i.transactionId)));
    expect(outcomes.map((o) => o.failure?.code ?? o.status)).toEqual([
      'INSUFFICIENT_FUNDS',
      'COMPLETED',
      'INSUFFICIENT_FUNDS',
      'DUPLICATED_TRANSFER',
      'DUPLICATED_TRANSFER',
      'COMPLETED',
    ]);
    await assertBooks(api);
  });
});

describe('GET /cash-out/batch/{batchId}', () => {
  it("answers 404 CASHOUT_NOT_FOUND for an unknown batch and for another client's", async () => {
    const [api, other] = [await Integrator.create(), await Integrator.create()];
    await deposit(api, 10);
    const accepted = await createBatch(api, batchItems(1));
    for (const [who, id] of [
      [other, accepted.batchId],
      [api, crypto.randomUUID()],
      [api, 'x'.repeat(101)],
    ] as const) {
      const res = await who.get(`/cash-out/batch/${id}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('CASHOUT_NOT_FOUND');
    }
    await batchSettled(api, accepted.batchId);
  });
});
