/**
 * The `settings` table: the client's profile (name, statement start, merchant text of its BR Codes),
 * read once at start-up and written at onboarding and by PATCH /clients.
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
