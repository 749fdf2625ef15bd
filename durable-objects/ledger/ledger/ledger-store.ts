/**
 * The ledger store: every statement on accounts, ledger_entries and holds. Drizzle for ordinary
 * statements; fixed texts on the SQL API where the bench measured the path (EntryCursor's, the
 * executor's holds). Every function runs inside the caller's storage transaction.
 */
import { and, eq, like, sql } from 'drizzle-orm';
import type { ArchivableTable } from '../archivable';
import { ledgerArchivedUntil } from '../archive/archive-store';
import { insertStoredRows, type LedgerDb, type StoredRow, sqlOf } from '../db';
import { ph, prepared } from '../prepared';
import { keysetRows, type PageInput } from '../reads/keyset';
import { accounts, holds, ledgerEntries } from '../schema';

export type AccountRow = typeof accounts.$inferSelect;

/** Onboarding (idempotent): opens one of the client's accounts at a partner; an open one stays. */
export function openAccount(db: LedgerDb, account: typeof accounts.$inferInsert): void {
  chargeIspbs.delete(db);
  db.insert(accounts).values(account).onConflictDoNothing().run();
}

/**
 * The ISPB of the client's first TRANSACTIONAL account, read once per object: every Cash-In is
 * charged there, and an account's partner and type never change once opened (only openAccount
 * adds one, and forgets this).
 */
const chargeIspbs = new WeakMap<LedgerDb, string>();

export function firstTransactionalIspb(db: LedgerDb): string | undefined {
  let ispb = chargeIspbs.get(db);
  if (ispb === undefined) {
    ispb = transactionalAccounts(db)[0]?.ispb;
    if (ispb !== undefined) chargeIspbs.set(db, ispb);
  }
  return ispb;
}

/** The client's TRANSACTIONAL accounts in onboarding order (its partners' order). */
export function transactionalAccounts(db: LedgerDb): AccountRow[] {
  return prepared(db, 'accounts.transactional', () =>
    db.select().from(accounts).where(eq(accounts.type, 'TRANSACTIONAL')).orderBy(sql`rowid`).prepare(),
  ).all();
}

/** The client's first partner (onboarding order), or undefined before onboarding. */
export function firstPartnerIspb(db: LedgerDb): string | undefined {
  return prepared(db, 'accounts.first', () =>
    db.select({ ispb: accounts.ispb }).from(accounts).orderBy(sql`rowid`).limit(1).prepare(),
  ).get()?.ispb;
}

/** One entry by its id (a posting's result as the statement shows it). */
export function entryById(db: LedgerDb, id: string) {
  return db.select().from(ledgerEntries).where(eq(ledgerEntries.id, id)).get();
}

export function account(db: LedgerDb, number: string): AccountRow | undefined {
  return db.select().from(accounts).where(eq(accounts.number, number)).get();
}

export function accountAt(
  db: LedgerDb,
  ispb: string,
  type: 'TRANSACTIONAL' | 'PROPRIETARY',
): AccountRow | undefined {
  // Built once per object: every refund and its settlement ask.
  return prepared(db, 'accounts.at', () =>
    db
      .select()
      .from(accounts)
      .where(and(eq(accounts.ispb, ph('ispb')), eq(accounts.type, ph('type'))))
      .prepare(),
  ).get({ ispb, type });
}

export function heldAmount(db: LedgerDb, accountNumber: string): number {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${holds.amount}), 0)` })
    .from(holds)
    .where(eq(holds.accountNumber, accountNumber))
    .get();
  return row?.total ?? 0;
}

/** What open disputes hold on the account (their holds' ids start `dispute:`, dispute-ops.ts). */
export function blockedAmount(db: LedgerDb, accountNumber: string): number {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${holds.amount}), 0)` })
    .from(holds)
    .where(and(eq(holds.accountNumber, accountNumber), like(holds.id, 'dispute:%')))
    .get();
  return row?.total ?? 0;
}

export function entryExists(db: LedgerDb, id: string): boolean {
  return (
    db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.id, id)).get() !==
    undefined
  );
}

export function placeHold(
  db: LedgerDb,
  hold: { id: string; accountNumber: string; amount: number; ref: string; at: number },
) {
  db.insert(holds)
    .values({
      id: hold.id,
      accountNumber: hold.accountNumber,
      amount: hold.amount,
      ref: hold.ref,
      createdAt: hold.at,
    })
    .run();
}

export function findHold(db: LedgerDb, id: string) {
  return db.select().from(holds).where(eq(holds.id, id)).get();
}

export function releaseHold(db: LedgerDb, id: string): void {
  db.delete(holds).where(eq(holds.id, id)).run();
}

/** Centavos of one payment our devolution entries sent back to its payer. */
export function refundedOutOf(db: LedgerDb, endToEndId: string): number {
  return sqlOf(db)
    .exec<{ total: number }>(
      `SELECT coalesce(sum(amount), 0) AS total FROM ledger_entries
       WHERE original_end_to_end_id = ? AND type = 'PIX_REFUND_OUT'`,
      endToEndId,
    )
    .one().total;
}

/**
 * Centavos of one payment's devolutions on the account booked at or after `since`, among the hot
 * entries, and the latest archived entry's time of the account (null: none archived).
 */
export function returnedSince(
  db: LedgerDb,
  accountNumber: string,
  endToEndId: string,
  since: number,
): { hot: number; archivedUntil: number | null } {
  return sqlOf(db)
    .exec<{ hot: number; archivedUntil: number | null }>(
      `SELECT (SELECT coalesce(sum(amount), 0) FROM ledger_entries
               WHERE original_end_to_end_id = ?2 AND type = 'PIX_REFUND_OUT' AND created_at >= ?3) AS hot,
              ${ledgerArchivedUntil('?1')} AS archivedUntil`,
      accountNumber,
      endToEndId,
      since,
    )
    .one();
}

/** The client's accounts at one partner with their balances (the daily reconciliation). */
export function accountsAtPartner(db: LedgerDb, ispb: string): { number: string; balance: number }[] {
  return sqlOf(db)
    .exec<{ number: string; balance: number }>('SELECT number, balance FROM accounts WHERE ispb = ?', ispb)
    .toArray();
}

/**
 * The refunds holding money at one partner's accounts (their holds' ids start `refund:`,
 * refund-ops.ts): each one's transaction id and centavos. The holds table holds only what is live.
 */
export function refundHoldsAt(db: LedgerDb, ispb: string): { transactionId: string; amount: number }[] {
  return sqlOf(db)
    .exec<{ transactionId: string; amount: number }>(
      `SELECT substr(h.id, 8) AS transactionId, h.amount AS amount FROM holds h
       JOIN accounts a ON a.number = h.account_number WHERE a.ispb = ? AND h.id LIKE 'refund:%'`,
      ispb,
    )
    .toArray();
}

/** An account's Pix received and sent in [from, to), by its (account, time) index. */
export function pixEntriesBetween(db: LedgerDb, accountNumber: string, from: number, to: number) {
  return sqlOf(db).exec<{
    type: string;
    amount: number;
    end_to_end_id: string | null;
    ref: string;
    created_at: number;
  }>(
    `SELECT type, amount, end_to_end_id, ref, created_at FROM ledger_entries
     WHERE account_number = ? AND created_at >= ? AND created_at < ? AND type IN ('PIX_IN', 'PIX_OUT')`,
    accountNumber,
    from,
    to,
  );
}

/**
 * The executor's hold statements (cash-out-book.ts): fixed texts on the SQL API, measured on the
 * Cash-Out path, with the same effect as placeHold and releaseHold.
 */
export const fastHolds = {
  place(
    sql: SqlStorage,
    hold: { id: string; accountNumber: string; amount: number; ref: string; at: number },
  ): void {
    sql.exec(
      'INSERT INTO holds (id, account_number, amount, ref, created_at) VALUES (?, ?, ?, ?, ?)',
      hold.id,
      hold.accountNumber,
      hold.amount,
      hold.ref,
      hold.at,
    );
  },
  /** True when the hold existed (and is gone now). */
  release(sql: SqlStorage, id: string): boolean {
    return sql.exec('DELETE FROM holds WHERE id = ? RETURNING id', id).toArray().length > 0;
  },
  drop(sql: SqlStorage, id: string): void {
    sql.exec('DELETE FROM holds WHERE id = ?', id);
  },
  /** Many holds in one statement: each [id, accountNumber, amount, ref, createdAt]. */
  placeMany(sql: SqlStorage, rows: readonly [string, string, number, string, number][]): void {
    if (rows.length === 0) return;
    sql.exec(
      `INSERT INTO holds (id, account_number, amount, ref, created_at)
       SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]', value ->> '$[4]'
       FROM json_each(?)`,
      JSON.stringify(rows),
    );
  },
  dropMany(sql: SqlStorage, ids: readonly string[]): void {
    if (ids.length === 0) return;
    sql.exec('DELETE FROM holds WHERE id IN (SELECT value FROM json_each(?))', JSON.stringify(ids));
  },
};

/** An entry's columns in table order (cursorSql.insert). */
export type EntryValues = [
  id: string,
  accountNumber: string,
  type: string,
  typeRaw: string,
  direction: string,
  amount: number,
  balanceAfter: number,
  description: string | null,
  endToEndId: string | null,
  originalEndToEndId: string | null,
  ref: string,
  createdAt: number,
];

/** EntryCursor's statements (entry-cursor.ts): fixed texts on the SQL API, on every posting's path. */
export const cursorSql = {
  balance(sql: SqlStorage, accountNumber: string): { balance: number } | undefined {
    return sql
      .exec<{ balance: number }>('SELECT balance FROM accounts WHERE number = ?', accountNumber)
      .toArray()[0];
  },
  /** The latest entry's time, hot or archived (the archive store's manifest index). */
  lastTimes(sql: SqlStorage, accountNumber: string): { hot: number | null; archived: number | null } {
    return sql
      .exec<{ hot: number | null; archived: number | null }>(
        `SELECT (SELECT created_at FROM ledger_entries WHERE account_number = ?1
                 ORDER BY created_at DESC, seq DESC LIMIT 1) AS hot,
                ${ledgerArchivedUntil('?1')} AS archived`,
        accountNumber,
      )
      .one();
  },
  /** Columns in table order: id, account_number, type, type_raw, direction, amount, balance_after,
   * description, end_to_end_id, original_end_to_end_id, ref, created_at. */
  insert(sql: SqlStorage, ...values: (string | number | null)[]): void {
    sql.exec(
      `INSERT INTO ledger_entries (id, account_number, type, type_raw, direction, amount, balance_after,
         description, end_to_end_id, original_end_to_end_id, ref, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ...values,
    );
  },
  /** Many entries in one statement, in the order given (their seqs follow it). */
  insertMany(sql: SqlStorage, rows: readonly EntryValues[]): void {
    sql.exec(
      `INSERT INTO ledger_entries (id, account_number, type, type_raw, direction, amount, balance_after,
         description, end_to_end_id, original_end_to_end_id, ref, created_at)
       SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]', value ->> '$[4]',
         value ->> '$[5]', value ->> '$[6]', value ->> '$[7]', value ->> '$[8]', value ->> '$[9]',
         value ->> '$[10]', value ->> '$[11]'
       FROM json_each(?) ORDER BY key`,
      JSON.stringify(rows),
    );
  },
  setBalance(sql: SqlStorage, accountNumber: string, balance: number): void {
    sql.exec('UPDATE accounts SET balance = ? WHERE number = ?', balance, accountNumber);
  },
};

export type EntryRow = typeof ledgerEntries.$inferSelect;

/** Every account of the client in onboarding order (the client's partner order). */
export function allAccounts(db: LedgerDb): AccountRow[] {
  return db.select().from(accounts).orderBy(sql`rowid`).all();
}

/** A page of an account's hot entries in statement order (created_at, seq), limit + 1 rows. */
export function hotEntryRows(db: LedgerDb, accountNumber: string, input: PageInput) {
  return keysetRows<EntryRow>(
    db,
    ledgerEntries,
    ledgerEntries.createdAt,
    ledgerEntries.seq,
    input,
    eq(ledgerEntries.accountNumber, accountNumber),
  );
}

/**
 * An account's ledger entries as the archive moves them (archivable.ts): immutable once posted, so
 * every one older than `before` is eligible (a statement and a balance `at` read them back; the
 * balance itself lives on the account row).
 */
export function entryArchive(accountNumber: string): ArchivableTable {
  return {
    table: ledgerEntries,
    time: ledgerEntries.createdAt,
    seq: ledgerEntries.seq,
    scope: sql`${ledgerEntries.accountNumber} = ${accountNumber}`,
    eligible: (before) =>
      sql`${ledgerEntries.accountNumber} = ${accountNumber} AND ${ledgerEntries.createdAt} < ${before}`,
  };
}

/** The entries of one ref (`cash-in:<id>`, `cash-out:<id>`) as stored, in posting order. */
export function storedEntriesOf(sqlApi: SqlStorage, ref: string): StoredRow[] {
  return sqlApi.exec<StoredRow>('SELECT * FROM ledger_entries WHERE ref = ? ORDER BY seq', ref).toArray();
}

/** Every account's number, partner and type. */
export function accountKeys(sqlApi: SqlStorage): StoredRow[] {
  return sqlApi.exec<StoredRow>('SELECT number, ispb, type FROM accounts').toArray();
}

/** How many entries of any account were posted after `at`. */
export function entriesAfter(sqlApi: SqlStorage, at: number): number {
  return Number(
    sqlApi.exec<{ n: number }>('SELECT count(*) AS n FROM ledger_entries WHERE created_at > ?', at).one().n,
  );
}

/** Entry rows as stored (seq left to SQLite; balance_after already chained), set-based: the bench's history seeding. */
export function insertStoredEntries(sqlApi: SqlStorage, rows: StoredRow[]): void {
  insertStoredRows(sqlApi, 'ledger_entries', rows);
}

/** Every row, oldest first: what the tests assert on (test/support/ledger-reads.ts), read here so the table keeps one home. */
export function allEntries(db: LedgerDb): EntryRow[] {
  return db.select().from(ledgerEntries).orderBy(ledgerEntries.seq).all();
}

export type HoldRow = typeof holds.$inferSelect;

/** Every hold, by id (test/support/ledger-reads.ts). */
export function allHolds(db: LedgerDb): HoldRow[] {
  return db.select().from(holds).orderBy(holds.id).all();
}
