/**
 * Per-client rate limiting (docs/contract.md, Rate limits): 429 RATE_LIMITED with Retry-After once a client
 * exceeds its `rateLimitPerSecond`. The client's ClientLedger holds the one token bucket, so the budget is
 * exact across isolates and locations (the Workers Rate Limiting binding counts per location and has one
 * fixed limit per binding). Each isolate leases tokens in small batches (src/domain/token-lease.ts) and asks
 * the Durable Object again only when its pool is empty; concurrent requests of one client in one isolate
 * share a single lease call.
 */

import { ledgerOf } from '../../durable-objects/stubs';
import { retryAfterSeconds, type TokenGrant } from '../domain/token-bucket';
import {
  addLease,
  blockedFor,
  emptyPool,
  type LeasePool,
  leaseWant,
  takeFromPool,
} from '../domain/token-lease';
import { ProblemError } from './errors';

interface ClientPool {
  pool: LeasePool;
  /** The lease call in flight, awaited by every request that found the pool empty meanwhile. */
  lease?: Promise<void>;
  /** Requests waiting for a token (the lease asks for one each). */
  waiting: number;
}

const pools = new Map<string, ClientPool>();
const MAX_POOLS = 50_000;

function poolOf(clientId: string, ratePerSecond: number): ClientPool {
  let entry = pools.get(clientId);
  // A changed rate (an operator PATCH) starts a fresh pool: tokens leased under the old rate and a
  // block computed from it no longer apply.
  if (!entry || entry.pool.ratePerSecond !== ratePerSecond) {
    if (pools.size >= MAX_POOLS) pools.clear();
    entry = { pool: emptyPool(ratePerSecond), waiting: 0 };
    pools.set(clientId, entry);
  }
  return entry;
}

function lease(env: Env, clientId: string, entry: ClientPool): Promise<void> {
  const { pool } = entry;
  const want = leaseWant(pool, entry.waiting, Date.now());
  return ledgerOf(env, clientId)
    .leaseRequestTokens(pool.ratePerSecond, want)
    .then((grant: TokenGrant) => addLease(pool, grant, Date.now()))
    .finally(() => {
      entry.lease = undefined;
    });
}

function rateLimited(ratePerSecond: number, retryAfterMs: number): ProblemError {
  const seconds = retryAfterSeconds(retryAfterMs);
  return new ProblemError(
    'RATE_LIMITED',
    `Request budget of ${ratePerSecond} per second exceeded; retry after ${seconds} s`,
    { headers: { 'retry-after': String(seconds) } },
  );
}

/**
 * Spends one request of the client's budget or throws 429 RATE_LIMITED. A client without a limit
 * (`null`) costs nothing, not even a lookup.
 */
export async function spendRequestToken(
  env: Env,
  clientId: string,
  ratePerSecond: number | null,
): Promise<void> {
  if (ratePerSecond === null) return;
  for (;;) {
    const entry = poolOf(clientId, ratePerSecond);
    const now = Date.now();
    if (takeFromPool(entry.pool, now)) return;
    const blocked = blockedFor(entry.pool, now);
    if (blocked > 0) throw rateLimited(ratePerSecond, blocked);
    entry.waiting += 1;
    try {
      entry.lease ??= lease(env, clientId, entry);
      await entry.lease;
    } finally {
      entry.waiting -= 1;
    }
  }
}
