/**
 * `POST /__bench/seed-history` (operator token): bench/run.mjs's way to give a client a month of
 * history before the `@history` scenarios (durable-objects/staging/bench-seed.ts). Outside the API's
 * router and its OpenAPI document: when bench seeding is off (any deployment, any test run without
 * BENCH_SEED=on on staging) the path is not special and answers the router's 404.
 */
import type { HistoryTemplate } from '../../durable-objects/staging/bench-seed';
import { stagingLedgerOf } from '../../durable-objects/staging/client-ledger';
import { isBenchSeedEnabled } from '../config';
import { findClient } from '../db/clients';
import { requireOperator } from '../http/admin-auth';
import { readJsonObject } from '../http/body';
import { ProblemError } from '../http/errors';

export const BENCH_SEED_PATH = '/__bench/seed-history';

export function isBenchSeedRequest(request: Request, env: Env): boolean {
  return (
    request.method === 'POST' && new URL(request.url).pathname === BENCH_SEED_PATH && isBenchSeedEnabled(env)
  );
}

interface SeedRequest {
  templateClientId: string;
  cashInId: string;
  cashOutId: string;
  clientId: string;
  offset: number;
  count: number;
  from: number;
  stepMs: number;
  payees: number;
  cashOutEvery?: number;
  /** bench:footprint: instead of seeding, read the object's footprint (durable-objects/staging/bench-seed.ts). */
  footprint?: { probes: number };
}

/** Copies the template pair's rows from one client into `count` pairs of another's history. */
export async function handleBenchSeed(request: Request, env: Env): Promise<Response> {
  requireOperator(request, env);
  const body = (await readJsonObject(request)) as unknown as SeedRequest;
  if (body.footprint) {
    const probes = body.footprint.probes;
    if (!Number.isSafeInteger(probes) || probes < 0) throw new ProblemError('VALIDATION_ERROR', 'bad probes');
    return Response.json(await stagingLedgerOf(env, body.clientId).bench({ op: 'footprint', probes }));
  }
  for (const n of [body.offset, body.count, body.from, body.stepMs, body.payees])
    if (!Number.isSafeInteger(n) || n < 0) throw new ProblemError('VALIDATION_ERROR', 'bad seed numbers');
  const template = (await stagingLedgerOf(env, body.templateClientId).bench({
    op: 'template',
    cashInId: body.cashInId,
    cashOutId: body.cashOutId,
  })) as HistoryTemplate | undefined;
  if (!template) throw new Error('no template');
  const client = await findClient(env, body.clientId);
  if (!client?.locationKey) throw new ProblemError('NOT_FOUND', 'no such client');
  await stagingLedgerOf(env, body.clientId).bench({
    op: 'seed',
    template,
    clientId: body.clientId,
    locationKey: client.locationKey,
    offset: body.offset,
    count: body.count,
    from: body.from,
    stepMs: body.stepMs,
    payees: Math.max(1, body.payees),
    ...(Number.isSafeInteger(body.cashOutEvery) && {
      cashOutEvery: Math.max(1, body.cashOutEvery as number),
    }),
  });
  return new Response(null, { status: 204 });
}
