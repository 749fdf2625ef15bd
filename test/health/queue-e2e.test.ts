/**
 * Issue 7 end to end through the real pipeline. An operator makes the sandbox partner Beta fail
 * Cash-Outs (POST /admin/partners/{ispb}/faults); three days of generated history and the
 * observations of real Cash-Outs reach the shared 'platform' HealthAnalyzer through the
 * HEALTH_SIGNALS queue and its consumer (the Cash-Outs' through their ledger outbox); the incident
 * shows on /health/pix* for a client routed through Beta, not for a bystander, and arrives at the
 * client's healthWebhookUrl as PIX_INCIDENT_DETECTED.
 *
 * Time: windows close on wall-clock time and the 'platform' analyzer already counts the live traffic
 * of other test files, so days-old history would be too late for it. The history bootstraps it
 * instead (src/health/baselines/bootstrap.ts, the production path for warming up a new deployment): recent
 * observations are parked until the history stops arriving, then counted in their own windows. (Not
 * an analyzer chosen per test: the queue message must not pick it, and the bindings are shared by
 * every test file.) The history goes in two parts: three days up to two hours ago first; the rest, up
 * to now, after the real Cash-Outs, once their window is known.
 *
 * An incident opens on the second anomalous window in a row. The generated traffic shows Beta failing
 * in the window before the real Cash-Outs (at a volume that clears the gates at any hour) and nowhere
 * else; the second window is the real Cash-Outs' own, where the generated background alone is below
 * the volume gates. They come from two clients routed only through Beta: with one, the failures would
 * rightly be that merchant's (MERCHANT), since Beta's other traffic would look fine. The test closes
 * that window (advance) instead of waiting for the alarm, then resets the analyzer: its generated
 * baseline would make the next windows of the suite look like an outage.
 */
import { env } from 'cloudflare:workers';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { HealthPictureBody } from '../../src/api/health/get-pix-health';
import { WINDOW_MS } from '../../src/health';
import { isoZ } from '../../src/health/windows/window';
import { waitFor } from '../support/cash-in';
import { createCashOut, deposit, settled } from '../support/cash-out';
import { dropIncidentsOf } from '../support/d1-writes';
import { admin, Integrator } from '../support/harness';
import { dailyShape, faults, generateArray } from '../support/health';
import { outboxRows, partnerTransfers } from '../support/ledger-reads';
import { addOutboxEvent, addTask, wakeIn } from '../support/ledger-writes';
import { type Observed, recordObservations } from '../support/observations';
import { newSink, received, waitUntil } from '../support/webhooks';
import {
  analyzer,
  BETA,
  cashOutShare,
  DAY,
  GAMA,
  HOUR,
  windowStart,
  withIds,
  worldWith,
} from './worker-world';

const platform = () => analyzer('platform');
const SEED = 11;
const FINAL = ['COMPLETED', 'CANCELLED', 'REFUNDED'];

async function send(observations: { id: string }[]): Promise<void> {
  for (let i = 0; i < observations.length; i += 100) {
    await env.HEALTH_SIGNALS.sendBatch(observations.slice(i, i + 100).map((body) => ({ body })));
  }
}

/** Until the analyzer has taken every one of these ids off the queue (counted or parked). */
async function delivered(ids: string[]): Promise<void> {
  await waitUntil(
    () => platform().countSeen(ids.slice(-1)),
    (n) => n === 1,
    60_000,
  );
  await waitUntil(
    () => platform().countSeen(ids),
    (n) => n === ids.length,
  );
}

async function sentToPartner(transactionIds: string[]): Promise<number> {
  return (await partnerTransfers(transactionIds)).length;
}

async function deleteIncidentsOf(clientId: string): Promise<void> {
  await dropIncidentsOf(clientId);
}

describe('PIX health end to end through the queue', () => {
  it('an operator fault on a sandbox partner opens an incident seen on the API and delivered as an event', async () => {
    const sink = newSink();
    const affected = await Integrator.create({ partners: [BETA] });
    const peer = await Integrator.create({ partners: [BETA] });
    const bystander = await Integrator.create({ partners: [GAMA] });
    const clientId = affected.client.clientId;
    const patch = await admin(`/admin/clients/${clientId}`, 'PATCH', { healthWebhookUrl: sink.url });
    expect(patch.status).toBe(200);
    await deposit(affected, 100);
    await deposit(peer, 100);
    const world = worldWith(clientId, 10);
    const run = crypto.randomUUID();

    try {
      // 1. History: three days (seasonal baseline) up to two hours ago. It bootstraps the analyzer.
      const historyEnd = windowStart(Date.now()) - 2 * HOUR;
      const history = withIds(
        generateArray({ world, seed: SEED, from: historyEnd - 3 * DAY, to: historyEnd }),
        `${run}:history`,
      );
      await send(history);
      await delivered(history.map((o) => o.id));
      expect((await platform().stats()).bootstrapping).toBe(true);

      // 2. The operator's fault, and real Cash-Outs through Beta (both clients' only partner). They
      // take a few seconds (a minute on a busy machine): start them with two minutes of a 5-minute window
      // left so their outcomes share one.
      const untilNextWindow = windowStart(Date.now()) + WINDOW_MS - Date.now();
      if (untilNextWindow < 120_000) await new Promise((r) => setTimeout(r, untilNextWindow + 1_000));
      const fault = await admin(`/admin/partners/${BETA}/faults`, 'POST', {
        operation: 'CASH_OUT',
        failureRate: 0.9,
        failureCode: 'PROVIDER_UNAVAILABLE',
        minutes: 2,
      });
      expect(fault.status).toBe(201);
      const mineSeen = await recordObservations(clientId);
      const peersSeen = await recordObservations(peer.client.clientId);
      const senders = [...Array<Integrator>(20).fill(affected), ...Array<Integrator>(15).fill(peer)];
      const accepted = await Promise.all(senders.map((api) => createCashOut(api, { amount: 1 })));
      // The partner decides a payment's outcome when it receives it: the fault (global to the
      // partner, so other test files feel it too) can go as soon as all of them are in.
      const ids = accepted.map((a) => a.transactionId as string);
      await waitUntil(
        () => sentToPartner(ids),
        (n) => n === ids.length,
        90_000,
      );
      expect((await admin(`/admin/partners/${BETA}/faults`, 'DELETE')).status).toBe(204);
      const outcomes = await Promise.all(ids.map((id, i) => settled(senders[i]!, id, FINAL, 90_000)));
      const failed = outcomes.filter((o) => o.status === 'CANCELLED');
      expect(failed.length).toBeGreaterThanOrEqual(25);
      for (const o of failed) expect(o.failure!.code).toBe('PROVIDER_UNAVAILABLE');

      // Their observations leave through the ledger outboxes and the queue.
      const published = async (api: Integrator, seen: Observed[], n: number) => {
        await waitFor(
          async () => seen.length,
          (count) => count >= 2 * n,
          90_000,
        );
        // Nothing is left behind in the ledger's outbox.
        const left = await outboxRows(api.client.clientId, 'health');
        expect(left).toEqual([]);
        return [...seen]; // a copy: the recorder goes on (the redelivery below passes it too)
      };
      const mine = await published(affected, mineSeen, 20);
      const peers = await published(peer, peersSeen, 15);
      const live = [...mine, ...peers];
      expect(live.filter((o) => o.event === 'FAILED').length).toBe(failed.length);
      await delivered(live.map((o) => o.id));
      // The window of most real outcomes (they may straddle two); each client must have failures in it.
      const perWindow = new Map<number, number>();
      for (const o of live.filter((x) => x.event !== 'CREATED')) {
        const w = windowStart(Date.parse(o.at));
        perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
      }
      const liveWindow = [...perWindow].sort((a, b) => b[1] - a[1])[0]![0];
      const failuresIn = (list: Observed[]) =>
        list.filter((o) => o.event === 'FAILED' && windowStart(Date.parse(o.at)) === liveWindow).length;
      expect(failuresIn(mine)).toBeGreaterThanOrEqual(5);
      expect(failuresIn(peers)).toBeGreaterThanOrEqual(3);

      // 3. The rest of the history, up to now: Beta failing in the window before the real failures,
      // at a volume that clears the gates at any hour of the day; normal everywhere else.
      const faultFrom = liveWindow - WINDOW_MS;
      const peak = Math.ceil(40 / (5 * dailyShape(faultFrom + WINDOW_MS / 2) * cashOutShare(world, BETA)));
      const tail = withIds(
        [
          ...generateArray({ world, seed: SEED, from: historyEnd, to: faultFrom }),
          ...generateArray({
            world: { ...world, peakPerMinute: Math.max(world.peakPerMinute, peak) },
            seed: SEED,
            from: faultFrom,
            to: liveWindow,
            faults: [faults.partnerFailure(BETA, 'CASH_OUT', faultFrom, liveWindow, 0.9)],
          }),
          ...generateArray({ world, seed: SEED, from: liveWindow, to: Date.now() }),
        ],
        `${run}:tail`,
      );
      await send(tail);
      await delivered(tail.map((o) => o.id));

      // 4. Redelivery: a ledger sends its observations again, as after a crash between the queue send
      // and deleting them. The analyzer knows their ids and does not count them twice.
      const duplicatesBefore = (await platform().stats()).duplicates;
      for (const { id, ...data } of mine)
        await addOutboxEvent(clientId, {
          eventId: id,
          aggregateId: 'redelivered',
          channel: 'health',
          eventType: 'OBSERVATION',
          data,
          occurredAt: Date.now(),
        });
      await addTask(clientId, 'flush-outbox', 'all', Date.now(), 0);
      await wakeIn(clientId, 20);
      await waitUntil(
        () => platform().stats(),
        (s) => s.duplicates - duplicatesBefore >= mine.length,
        90_000,
      );

      // 5. Close the window of the real failures: the second anomalous window in a row.
      await platform().advance(liveWindow + WINDOW_MS);
      expect((await platform().stats()).warm).toBe(true);

      const list = await affected.get('/health/pix/incidents');
      expect(list.status).toBe(200);
      const items = ((await list.json()) as { items: any[] }).items;
      const incident = items.find(
        (i) => i.origin.type === 'BANKING_PARTNER' && i.origin.id === BETA && i.startedAt === isoZ(faultFrom),
      );
      expect(incident, JSON.stringify(items)).toBeDefined();
      expect(incident).toMatchObject({
        operation: 'CASH_OUT',
        detectedAt: isoZ(liveWindow + WINDOW_MS),
        originClass: 'CONFIRMED',
      });
      expect(['ACTIVE', 'WORSENING']).toContain(incident.status);

      const picture = (await (await affected.get('/health/pix')).json()) as HealthPictureBody;
      expect(picture.incidents.map((i: any) => i.incidentId)).toContain(incident.incidentId);
      expect(picture.blocks.find((b: any) => b.operation === 'CASH_OUT')!.status).not.toBe('HEALTHY');

      const detail = await affected.get(`/health/pix/incidents/${incident.incidentId}`);
      expect(detail.status).toBe(200);
      const { incident: same, evidence } = (await detail.json()) as { incident: any; evidence: any[] };
      expect(same).toEqual(incident);
      // Beta's failure rate was anomalous in the generated window and in the real Cash-Outs' window.
      const windowsWithErrors = new Set(
        evidence
          .filter((e) => e.entity.id === BETA && e.metric.startsWith('failureRate'))
          .map((e) => Date.parse(e.observedAt)),
      );
      expect([...windowsWithErrors].sort()).toEqual([faultFrom, liveWindow]);

      // Out of scope: exactly like an incident that does not exist.
      const foreign = await bystander.get(`/health/pix/incidents/${incident.incidentId}`);
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toEqual(await (await bystander.get('/health/pix/incidents/nope')).json());
      const theirs = ((await (await bystander.get('/health/pix/incidents')).json()) as { items: any[] })
        .items;
      expect(theirs.map((i) => i.incidentId)).not.toContain(incident.incidentId);
      const theirPicture = (await (await bystander.get('/health/pix')).json()) as HealthPictureBody;
      expect(
        [...theirPicture.incidents, ...theirPicture.externalIncidents].map((i: any) => i.incidentId),
      ).not.toContain(incident.incidentId);

      // The event, signed with the client's webhook secret (other tests' incidents may arrive too).
      const verify = new Webhook(affected.client.webhookSecret);
      const events = await waitUntil(
        async () => (await received(sink)).map((r) => verify.verify(r.body, r.headers) as any),
        (list) => list.some((e) => e.data.incidentId === incident.incidentId),
        90_000,
      );
      const event = events.find((e) => e.data.incidentId === incident.incidentId);
      expect(event.eventType).toBe('PIX_INCIDENT_DETECTED');
      expect(event.eventAt).toMatch(/Z$/);
      expect(event.data).toEqual(incident);
    } finally {
      await admin(`/admin/partners/${BETA}/faults`, 'DELETE');
      await platform().reset();
      await deleteIncidentsOf(clientId);
      await deleteIncidentsOf(peer.client.clientId);
    }
  }, 600_000);
});
