/**
 * The `settings` table: the client's profile (name, statement start, merchant text of its BR Codes),
 * read once at start-up and written at onboarding and by PATCH /clients; the contexts of stored answers;
 * and the archive registry's shard count, recorded when the client's archive begins (archive/archive-index.ts).
 */
import { eq } from 'drizzle-orm';
import type { LedgerDb } from './db';
import type { Profile } from './ledger-context';
import { settings } from './schema';

/** The stored profile, or undefined before onboarding. */
export function readProfile(db: LedgerDb): Profile | undefined {
  return db.select().from(settings).where(eq(settings.key, 'profile')).get()?.value as Profile | undefined;
}

/** Onboarding (idempotent): stores the profile, replacing an earlier one. */
export function storeProfile(db: LedgerDb, profile: Profile): void {
  db.insert(settings)
    .values({ key: 'profile', value: profile })
    .onConflictDoUpdate({ target: settings.key, set: { value: profile } })
    .run();
}

/** Replaces the profile of an onboarded client (a no-op before onboarding). */
export function updateProfile(db: LedgerDb, profile: Profile): void {
  db.update(settings).set({ value: profile }).where(eq(settings.key, 'profile')).run();
}

/** The key of the client's archive-registry shard count (archive/archive-index.ts). */
const REGISTRY_SHARDS_KEY = 'archiveRegistryShards';

/**
 * How many archive-registry shards the client's archive was begun with; undefined if none was recorded.
 * A stored value that is no positive integer throws: guessing a count would look for ids in the wrong shards.
 */
export function readRegistryShards(db: LedgerDb): number | undefined {
  const row = db.select().from(settings).where(eq(settings.key, REGISTRY_SHARDS_KEY)).get();
  if (row === undefined) return undefined;
  if (typeof row.value !== 'number' || !Number.isInteger(row.value) || row.value < 1)
    throw new Error(`archive registry shard count is not a positive integer: ${JSON.stringify(row.value)}`);
  return row.value;
}

/** Records the shard count once: a recorded count never changes (its ids are placed by it). */
export function recordRegistryShards(db: LedgerDb, shards: number): void {
  db.insert(settings).values({ key: REGISTRY_SHARDS_KEY, value: shards }).onConflictDoNothing().run();
}

/** Tests only (test/support/archive-registry.ts): a client whose archive began before counts were recorded. */
export function forgetRegistryShards(db: LedgerDb): void {
  db.delete(settings).where(eq(settings.key, REGISTRY_SHARDS_KEY)).run();
}

const CONTEXTS = 'answer-contexts';

/**
 * The texts a client's stored idempotent answers share beyond their transaction (ledger/ledger/idempotency-codec.ts:
 * a BR Code's location prefix, the merchant's name and city), in the order first seen; an answer names one by index.
 */
export function readAnswerContexts(db: LedgerDb): string[] {
  return (
    (db.select().from(settings).where(eq(settings.key, CONTEXTS)).get()?.value as string[] | undefined) ?? []
  );
}

/** Appends a context, in the transaction of the answer that first names it. */
export function storeAnswerContexts(db: LedgerDb, contexts: string[]): void {
  db.insert(settings)
    .values({ key: CONTEXTS, value: contexts })
    .onConflictDoUpdate({ target: settings.key, set: { value: contexts } })
    .run();
}
