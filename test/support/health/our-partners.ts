// The generator's reference world routed through this deployment's sandbox partners: pure, so both
// the Workers tests (test/health/worker-world.ts) and the Node tests (test/node) can use it.
import type { Observation } from '../../../src/health/types';
import { defaultWorld, type World } from './world';

export const ALFA = '31880826';
export const BETA = '42273459';
export const GAMA = '56431109';
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** defaultWorld on our partners; `clientId` takes the place of client-b (single-homed on Beta). */
export function worldWith(clientId: string, peakPerMinute: number): World {
  const world = defaultWorld(peakPerMinute);
  const map: Record<string, string> = { '90000001': ALFA, '90000002': BETA, '90000003': GAMA };
  world.partners = world.partners.map((p) => ({ ...p, ispb: map[p.ispb] as string }));
  world.clients = world.clients.map((c, i) => ({
    ...c,
    clientId: i === 1 ? clientId : c.clientId,
    partners: Object.fromEntries(Object.entries(c.partners).map(([k, v]) => [map[k] as string, v])),
  }));
  return world;
}

/** Share of the world's transactions that are Cash-Outs routed through `ispb`. */
export function cashOutShare(world: World, ispb: string): number {
  let share = 0;
  let total = 0;
  for (const c of world.clients) {
    const routes = Object.values(c.partners).reduce((s, w) => s + w, 0);
    share += (c.weight * (1 - c.cashInShare) * (c.partners[ispb] ?? 0)) / routes;
    total += c.weight;
  }
  return share / total;
}

/** Outbox-like ids, so a test can tell when the queue has delivered every one of them. */
export function withIds(observations: Observation[], prefix: string): (Observation & { id: string })[] {
  return observations.map((o, i) => ({ id: `${prefix}:${i}`, ...o }));
}
