/**
 * Archived transactions are found through the client's archive registry (durable-objects/
 * archive-registry.ts, docs/storage-schema.md "Archive"), not an index in the client's object: GET by
 * every id answers the same bytes across both index generations (the object's own `archive_index`,
 * written before the registry, and the registry), with at most 3 reads of R2 or calls to other
 * objects; references stay taken in both; a crash between registering a segment's ids and deleting
 * its rows loses and doubles nothing, and a reservation dropped after its ids were registered names
 * nothing.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { archiveAll } from '../../durable-objects/ledger/archive/archive';
import { idHash } from '../../durable-objects/ledger/archive/archive-index';
import {
  clearRegistry,
  countReads,
  forgetShards,
  recordedShards,
  registryContents,
  registryPairs,
  registryShardContents,
} from '../support/archive-registry';
import { createCashIn, payCashIn, problemCode, waitFor } from '../support/cash-in';
import { cashOutBody, createCashOut, deposit, getCashOut, settled } from '../support/cash-out';
import { armCrash, crashedAt } from '../support/crash';
import { admin, Integrator as Client, cashInBody, type Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { archiveSegments, archiveSizesOf, cashIns, cashOuts } from '../support/ledger-reads';
import { addIndexEntries, dropReservations } from '../support/ledger-writes';

const archive = (api: Integrator) =>
  admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
    before: new Date(Date.now() + 1).toISOString(),
  });

const ID_KEYS = ['internalCode', 'transactionId', 'endToEndId', 'externalReference'];

/** Every id of each transaction (the four a GET names it by) and the exact bytes its GET answers. */
async function reads(
  api: Integrator,
  kind: 'cash-in' | 'cash-out',
  txIds: string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const txId of txIds) {
    const view = (await (await api.get(`/${kind}/${txId}`)).json()) as Record<string, unknown>;
    for (const key of ID_KEYS) {
      const id = view[key];
      if (typeof id !== 'string') continue;
      const res = await api.get(`/${kind}/${encodeURIComponent(id)}`);
      out.set(`${kind} ${key} ${id}`, `${res.status} ${await res.text()}`);
    }
  }
  return out;
}

async function paidCashIns(api: Integrator, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = await createCashIn(api);
    await payCashIn(api, c.internalCode as string);
    ids.push(c.transactionId as string);
  }
  return ids;
}

async function completedCashOuts(api: Integrator, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const out = await createCashOut(api, { amount: 5 + i });
    expect(((await settled(api, out.transactionId)) as { status: string }).status).toBe('COMPLETED');
    ids.push(out.transactionId);
  }
  return ids;
}

/**
 * The generation before the registry: what the registry holds for the client goes to the object's
 * own `archive_index` (the same (hash, segment) pairs the object kept then) and leaves the registry.
 */
async function asOldGeneration(api: Integrator): Promise<number> {
  const pairs = await registryContents(api.client.clientId);
  await addIndexEntries(api.client.clientId, pairs);
  await clearRegistry(api.client.clientId);
  return pairs.length;
}

/** The balance body without its `asOf` instant. */
const balanceText = async (api: Integrator) => {
  const { asOf: _asOf, ...rest } = (await (await api.get('/account/balance')).json()) as Record<
    string,
    unknown
  >;
  return JSON.stringify(rest);
};

const referenceOf = (answers: Map<string, string>, txId: string) =>
  answers.get(`cash-in transactionId ${txId}`)?.match(/"externalReference":"([^"]+)"/)?.[1];

const indexRows = async (api: Integrator) => (await archiveSizesOf(api.client.clientId)).indexEntries;
const hot = async (api: Integrator, table: 'cash_ins' | 'cash_outs') =>
  (await (table === 'cash_ins' ? cashIns : cashOuts)(api.client.clientId)).length;

describe('the archive registry', () => {
  it('GET by every id answers the same bytes across both index generations, and references stay taken', async () => {
    const api = await Client.create();
    await deposit(api, 100);
    // Generation 1: archived while the object kept the index itself.
    const oldIns = await paidCashIns(api, 3);
    const oldOuts = await completedCashOuts(api, 2);
    const before = new Map([
      ...(await reads(api, 'cash-in', oldIns)),
      ...(await reads(api, 'cash-out', oldOuts)),
    ]);
    expect([...before.values()].every((a) => a.startsWith('200 '))).toBe(true);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 5 });
    const oldPairs = await asOldGeneration(api);
    expect(oldPairs).toBeGreaterThanOrEqual(5 * 3);
    expect(await indexRows(api)).toBe(oldPairs);
    expect(await registryPairs(api.client.clientId)).toBe(0);
    // Generation 2: archived through the registry; the object's index does not grow.
    const newIns = await paidCashIns(api, 3);
    const newOuts = await completedCashOuts(api, 2);
    for (const [k, v] of [
      ...(await reads(api, 'cash-in', newIns)),
      ...(await reads(api, 'cash-out', newOuts)),
    ])
      before.set(k, v);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 5 });
    expect(await hot(api, 'cash_ins')).toBe(0);
    expect(await hot(api, 'cash_outs')).toBe(0);
    expect(await indexRows(api)).toBe(oldPairs);
    expect(await registryPairs(api.client.clientId)).toBeGreaterThanOrEqual(5 * 3);

    // Every id of both generations, each GET reading at most 3 times (R2 or another object).
    const counted = await countReads(api);
    const after = new Map<string, string>();
    for (const [key, answer] of before) {
      const [kind, , id] = key.split(' ') as [string, string, string];
      const start = { ...counted };
      const res = await api.get(`/${kind}/${encodeURIComponent(id)}`);
      after.set(key, `${res.status} ${await res.text()}`);
      const used = counted.r2 - start.r2 + (counted.registry - start.registry);
      expect(used, key).toBeLessThanOrEqual(3);
      expect(counted.registry - start.registry, key).toBe(1);
      expect(after.get(key), key).toBe(answer);
    }
    expect(counted.r2).toBeGreaterThan(0);

    // Their references stay taken, for Cash-Ins and Cash-Outs, in either generation.
    for (const txId of [oldIns[0]!, newIns[0]!]) {
      const reference = (before.get(`cash-in transactionId ${txId}`) ?? '').match(
        /"externalReference":"([^"]+)"/,
      )?.[1];
      const again = await api.post('/cash-in', cashInBody({ externalReference: reference }));
      expect(again.status, reference).toBe(409);
      expect(await problemCode(again)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
    }
    for (const txId of [oldOuts[0]!, newOuts[0]!]) {
      const view = (await getCashOut(api, txId)) as unknown as { externalReference: string };
      const again = await api.signedPost(
        '/cash-out',
        cashOutBody({ externalReference: view.externalReference }),
      );
      expect(again.status).toBe(409);
      expect(await problemCode(again)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
      const batch = await api.signedPost('/cash-out/batch', {
        items: [cashOutBody(), cashOutBody({ externalReference: view.externalReference })],
      });
      expect(batch.status).toBe(409);
    }
  });

  it('a transaction archived in the old generation, refunded and archived again, is found in its new segment', async () => {
    const api = await Client.create();
    const [txId] = await paidCashIns(api, 1);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 1 });
    await asOldGeneration(api);
    const refund = await api.signedPost(`/cash-in/${txId}/refund`, { reason: 'FRAUD' });
    expect(refund.status).toBe(202);
    await waitFor(
      async () => ((await (await api.get(`/cash-in/${txId}`)).json()) as { status: string }).status,
      (s) => s === 'REFUNDED',
    );
    const refunded = await reads(api, 'cash-in', [txId!]);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 1 });
    expect(await hot(api, 'cash_ins')).toBe(0);
    expect(await reads(api, 'cash-in', [txId!])).toEqual(refunded);
    await assertBooks(api);
  });

  it('a crash between registering a segment’s ids and deleting its rows loses and doubles nothing', async () => {
    const api = await Client.create();
    const ins = await paidCashIns(api, 3);
    const before = await reads(api, 'cash-in', ins);
    const balance = await balanceText(api);
    await armCrash(api, 'archive.ids-registered');
    expect((await archive(api).catch(() => undefined))?.status ?? 500).toBe(500);
    expect(await crashedAt(api, 'archive.ids-registered')).toBeDefined();
    // Registered, still hot and reserved: every read is served by the hot rows.
    // Four ids per paid Cash-In: internalCode, TxId (a counter code's TxId is registered under itself,
    // archive-index.ts registeredUnderCode), externalReference, endToEndId.
    const registered = await registryPairs(api.client.clientId);
    expect(registered).toBe(3 * 4);
    const segments = await archiveSegments(api.client.clientId);
    expect(segments.map((s) => s.state)).toEqual(['WRITING']);
    expect(await hot(api, 'cash_ins')).toBe(3);
    expect(await reads(api, 'cash-in', ins)).toEqual(before);
    // The re-run registers the same pairs again (no double) and finishes.
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 3 });
    expect(await registryPairs(api.client.clientId)).toBe(registered);
    expect(await hot(api, 'cash_ins')).toBe(0);
    expect(await indexRows(api)).toBe(0);
    expect((await env.ARCHIVE.list({ prefix: `${api.client.clientId}/cash-in/` })).objects).toHaveLength(1);
    expect(await reads(api, 'cash-in', ins)).toEqual(before);
    expect(await balanceText(api)).toBe(balance);
  });

  it('ids registered for a reservation that was then dropped name nothing', async () => {
    const api = await Client.create();
    const ins = await paidCashIns(api, 2);
    const before = await reads(api, 'cash-in', ins);
    await armCrash(api, 'archive.ids-registered');
    expect((await archive(api).catch(() => undefined))?.status ?? 500).toBe(500);
    // What archive.ts does when a row changed during the put: the reservation goes, its rows stay
    // hot; its pairs stay in the registry, naming a segment id the manifest never holds again.
    const dropped = await dropReservations(api.client.clientId);
    expect(dropped).toHaveLength(1);
    expect(await registryPairs(api.client.clientId)).toBe(2 * 4);
    expect(await reads(api, 'cash-in', ins)).toEqual(before);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 2 });
    const segments = (await archiveSegments(api.client.clientId)).filter((s) => s.kind === 'cash-in');
    expect(segments.map((s) => s.id)).not.toContain(dropped[0]!.id);
    expect(await registryPairs(api.client.clientId)).toBe(2 * 2 * 4);
    // One segment read per GET: the dropped id is not read.
    const counted = await countReads(api);
    const after = await reads(api, 'cash-in', ins);
    expect(after).toEqual(before);
    expect(counted.r2).toBeLessThanOrEqual(1);
    const again = await api.post('/cash-in', cashInBody({ externalReference: referenceOf(before, ins[0]!) }));
    expect(again.status).toBe(409);
  });
  it('measures GET by id of archived and hot Cash-Ins (printed, not asserted: timing is the machine’s)', async () => {
    const api = await Client.create();
    const ids = async (txIds: string[]) =>
      [...(await reads(api, 'cash-in', txIds)).keys()].map((k) => k.split(' ')[2]!);
    // Ids read while hot, so the first archived GET below is the first to open the segment.
    const archived = await ids(await paidCashIns(api, 20));
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 20 });
    const hotOnes = await ids(await paidCashIns(api, 20));
    const time = async (list: string[]) => {
      const ms: number[] = [];
      for (const id of list) {
        const t = performance.now();
        expect((await api.get(`/cash-in/${encodeURIComponent(id)}`)).status).toBe(200);
        ms.push(performance.now() - t);
      }
      const first = ms[0]!;
      ms.sort((a, b) => a - b);
      const p99 = ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.99) - 1)]!;
      return { first, p50: ms[Math.floor(ms.length / 2)]!, p99 };
    };
    const cold = await time(archived);
    const warm = await time(hotOnes);
    console.log(
      `archive registry GET by id (${archived.length} ids each): archived first ${cold.first.toFixed(1)} ms, p50 ${cold.p50.toFixed(1)} ms p99 ${cold.p99.toFixed(1)} ms, ` +
        `hot p50 ${warm.p50.toFixed(1)} ms p99 ${warm.p99.toFixed(1)} ms`,
    );
  });
});

/**
 * Archives everything closed, as the admin call does, in an object whose deployment sets
 * ARCHIVE_REGISTRY_SHARDS to `shards`; the HTTP requests of the test see the suite's configuration
 * (none: 64), so a lookup that answered by the configuration instead of the client's count would miss.
 */
const archiveWithShards = (api: Integrator, shards: number) =>
  runInDurableObject(ledgerStub(api.client.clientId), async (instance) => {
    const ledger = ledgerContextOf(instance);
    const env = { ...ledger.env, ARCHIVE_REGISTRY_SHARDS: String(shards) } as Env;
    return archiveAll({ ...ledger, env }, Date.now() + 1);
  });

/** Every id of `answers`, asked again: the same bytes, one registry call and at most 3 reads each. */
async function sameThroughRegistry(api: Integrator, answers: Map<string, string>): Promise<void> {
  const counted = await countReads(api);
  for (const [key, answer] of answers) {
    const [kind, , id] = key.split(' ') as [string, string, string];
    const start = { ...counted };
    const res = await api.get(`/${kind}/${encodeURIComponent(id)}`);
    expect(`${res.status} ${await res.text()}`, key).toBe(answer);
    expect(counted.registry - start.registry, key).toBe(1);
    expect(counted.r2 - start.r2 + (counted.registry - start.registry), key).toBeLessThanOrEqual(3);
  }
}

/** Its references stay taken: a Cash-In, a Cash-Out and a batch naming one answer 409. */
async function referencesTaken(
  api: Integrator,
  answers: Map<string, string>,
  cashIn: string,
  cashOut: string,
) {
  const inReference = referenceOf(answers, cashIn);
  expect(inReference).toBeDefined();
  const again = await api.post('/cash-in', cashInBody({ externalReference: inReference }));
  expect(again.status, inReference).toBe(409);
  expect(await problemCode(again)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
  const outReference = answers
    .get(`cash-out transactionId ${cashOut}`)
    ?.match(/"externalReference":"([^"]+)"/)?.[1];
  expect(outReference).toBeDefined();
  const out = await api.signedPost('/cash-out', cashOutBody({ externalReference: outReference }));
  expect(out.status, outReference).toBe(409);
  expect(await problemCode(out)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
  const batch = await api.signedPost('/cash-out/batch', {
    items: [cashOutBody(), cashOutBody({ externalReference: outReference })],
  });
  expect(batch.status).toBe(409);
}

describe('a client’s registry shard count', () => {
  it('is fixed at its first archive: every id registers and is found through its shard among 128, whatever the deployment says later', async () => {
    const api = await Client.create();
    await deposit(api, 100);
    const ins = await paidCashIns(api, 4);
    const outs = await completedCashOuts(api, 3);
    const answers = new Map([...(await reads(api, 'cash-in', ins)), ...(await reads(api, 'cash-out', outs))]);
    expect(answers.size).toBe(4 * 4 + 3 * 4);
    // The books are checked hot (assertBooks reads the hot ledger); archived, the balance must not move.
    await assertBooks(api);
    const balance = await balanceText(api);
    expect(await recordedShards(api.client.clientId)).toBeUndefined();
    expect(await archiveWithShards(api, 128)).toBe(7);
    expect(await recordedShards(api.client.clientId)).toBe(128);
    // Each id's pair lies in the shard its hash names among 128 (a TxId of ours carries a counter
    // code: registered under itself), and half of them lie where 64 shards never look.
    const pairs = await registryShardContents(api.client.clientId, 256);
    const ids = [...answers.keys()].map((key) => key.split(' ')[2] as string);
    for (const id of ids)
      expect(
        pairs.some(([hash, , shard]) => hash === idHash(id) && shard === idHash(id) % 128),
        id,
      ).toBe(true);
    for (const [hash, , shard] of pairs) expect(shard).toBe(hash % 128);
    expect(pairs.some(([, , shard]) => shard >= 64)).toBe(true);
    await sameThroughRegistry(api, answers);
    await referencesTaken(api, answers, ins[0] as string, outs[0] as string);
    expect(await balanceText(api)).toBe(balance);

    // The deployment's count (none here: 64) no longer applies: a later archive keeps 128.
    const later = await paidCashIns(api, 2);
    const laterAnswers = await reads(api, 'cash-in', later);
    const laterBalance = await balanceText(api);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 2 });
    expect(await recordedShards(api.client.clientId)).toBe(128);
    for (const [hash, , shard] of await registryShardContents(api.client.clientId, 256))
      expect(shard).toBe(hash % 128);
    await sameThroughRegistry(api, new Map([...answers, ...laterAnswers]));
    expect(await balanceText(api)).toBe(laterBalance);
  });

  it('a client archived before counts were recorded keeps 64, whatever the deployment says, and finds its old ids', async () => {
    const api = await Client.create();
    await deposit(api, 100);
    const oldIns = await paidCashIns(api, 3);
    const oldOuts = await completedCashOuts(api, 2);
    const answers = new Map([
      ...(await reads(api, 'cash-in', oldIns)),
      ...(await reads(api, 'cash-out', oldOuts)),
    ]);
    await assertBooks(api);
    const balance = await balanceText(api);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 5 });
    // As an older version left it: pairs in 64 shards, no count recorded.
    await forgetShards(api.client.clientId);
    expect(await recordedShards(api.client.clientId)).toBeUndefined();
    const oldPairs = await registryPairs(api.client.clientId, 64);
    expect(oldPairs).toBeGreaterThanOrEqual(5 * 4);
    await sameThroughRegistry(api, answers);
    expect(await balanceText(api)).toBe(balance);

    // Its next archive, on a deployment that now begins archives with 128 shards, records 64.
    const newIns = await paidCashIns(api, 3);
    for (const [k, v] of await reads(api, 'cash-in', newIns)) answers.set(k, v);
    const newBalance = await balanceText(api);
    expect(await archiveWithShards(api, 128)).toBe(3);
    expect(await recordedShards(api.client.clientId)).toBe(64);
    expect(await registryPairs(api.client.clientId, 64)).toBe(oldPairs + 3 * 4);
    expect(await registryPairs(api.client.clientId, 128)).toBe(oldPairs + 3 * 4);
    await sameThroughRegistry(api, answers);
    await referencesTaken(api, answers, oldIns[0] as string, oldOuts[0] as string);
    expect(await balanceText(api)).toBe(newBalance);
  });
});
