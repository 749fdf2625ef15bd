/**
 * Bench-only history seeding (`npm run bench`'s `@history` twins, docs/benchmark.md): a client's past as
 * copies of one real paid Cash-In and one real COMPLETED Cash-Out, written straight into the rows
 * those operations leave for good, through the stores that own them — Cash-Ins, Cash-Outs, ledger
 * entries (balance_after chained, each account's balance kept equal to its last one), limit totals
 * (through countTowardLimits, the reservation's own code). What a real one writes only for a while
 * (outbox, idempotency keys, tasks, webhook deliveries, health observations) is not copied: it is
 * published and pruned within days. Ids are fresh from the same generators, times shifted, text
 * naming the template's ids rewritten. A call's rows go in set-based, many per statement.
 * Reachable only when `isBenchSeedEnabled` (staging AND BENCH_SEED=on, which only bench/run.mjs
 * sets); test/storage/bench-seed.test.ts proves a seeded pair's rows equal a real pair's.
 */
import { isBenchSeedEnabled } from '../../src/config';
import { newCashInTxId, newEndToEndId } from '../../src/domain/ids';
import {
  pendingReferences,
  referenceFilterSize,
  referenceMayBeArchived,
} from '../ledger/archive/reference-filter';
import { hotCashIns, insertStoredCashIns, storedCashIn } from '../ledger/cash-in/cash-in-store';
import { hotCashOuts, insertStoredCashOuts, storedCashOut } from '../ledger/cash-out/cash-out-store';
import { countTowardLimits } from '../ledger/cash-out/limit-totals';
import type { LedgerDb, StoredRow } from '../ledger/db';
import { takeCodes } from '../ledger/internal-codes';
import {
  type AccountRow,
  accountAt,
  accountKeys,
  cursorSql,
  entriesAfter,
  insertStoredEntries,
  storedEntriesOf,
} from '../ledger/ledger/ledger-store';

type Row = StoredRow;

/** The rows one real Cash-In and one real Cash-Out left: the template of every seeded pair. */
export interface HistoryTemplate {
  cashIn: Row;
  cashInEntries: Row[];
  cashOut: Row;
  cashOutEntries: Row[];
  /** The template client's accounts the entries name, matched here by partner and type. */
  accounts: Row[];
}

export interface SeedCommand {
  template: HistoryTemplate;
  /** Client id of the seeded object. */
  clientId: string;
  /** Its location key, which begins its Cash-In TxIds (ids.ts). */
  locationKey: string;
  /** Pairs to write in this call (one storage transaction) and the first pair's index. */
  count: number;
  offset: number;
  /** Pair i is requested at `from + i * stepMs`; its Cash-Out pays payee `i % payees`. */
  from: number;
  stepMs: number;
  payees: number;
  /** Pair i writes its Cash-Out only when i % cashOutEvery is 0 (bench:footprint: 2, half as many); 1 when absent. */
  cashOutEvery?: number;
}

export function readTemplate(sql: SqlStorage, cashInId: string, cashOutId: string): HistoryTemplate {
  const cashIn = storedCashIn(sql, cashInId);
  const cashOut = storedCashOut(sql, cashOutId);
  if (cashIn?.status !== 'PAID' || cashOut?.status !== 'COMPLETED')
    throw new Error('template: a PAID Cash-In and a COMPLETED Cash-Out are needed');
  return {
    cashIn,
    cashInEntries: storedEntriesOf(sql, `cash-in:${cashInId}`),
    cashOut,
    cashOutEntries: storedEntriesOf(sql, `cash-out:${cashOutId}`),
    accounts: accountKeys(sql),
  };
}

/** The payee of index k: an EVP key of its own (lower-case, as normalized). */
export const seededPixKey = (k: number) => `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;

/**
 * The template's names in one pattern, longest first (a TxId carries its internal code): each text is
 * rewritten in one pass instead of one split per name (a fifth of a seeded pair's CPU before).
 */
function namePattern(names: Iterable<string>): RegExp {
  const escaped = [...names]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(escaped.join('|'), 'g');
}

function rewrite(row: Row, names: Map<string, string>, pattern: RegExp, shift: number): Row {
  const out: Row = {};
  const rename = (name: string) => names.get(name) ?? name;
  for (const [column, value] of Object.entries(row)) {
    if (column === 'seq') continue;
    if (column.endsWith('_at') && typeof value === 'number') out[column] = value + shift;
    else if (typeof value === 'string') out[column] = value.replace(pattern, rename);
    else out[column] = value;
  }
  return out;
}

/** Writes `count` pairs; refuses to write history before entries that already exist. */
export function seedHistory(db: LedgerDb, storage: DurableObjectStorage, command: SeedCommand): void {
  const { template: t } = command;
  const sql = storage.sql;
  const pixKey = (JSON.parse(String(t.cashOut.destination)) as { pixKey: string }).pixKey;
  const entries = [...t.cashInEntries, ...t.cashOutEntries];
  storage.transactionSync(() => {
    const first = command.from + command.offset * command.stepMs;
    if (entriesAfter(sql, first) > 0) throw new Error('seeding: history must come before existing entries');
    const balances = new Map<string, number>();
    const accounts = new Map<string, string>();
    for (const a of t.accounts) {
      const row = accountAt(db, String(a.ispb), a.type as AccountRow['type']);
      if (!row) throw new Error(`seeding: no ${String(a.type)} account at ${String(a.ispb)} here`);
      accounts.set(String(a.number), String(row.number));
      balances.set(String(row.number), Number(row.balance));
    }
    // This call's rows, inserted set-based after the loop; their codes from the client's counter, as
    // the operations take theirs (internal-codes.ts).
    const cashIns: Row[] = [];
    const cashOuts: Row[] = [];
    const entryRows: Row[] = [];
    const codes = takeCodes(sql, 2 * command.count);
    // The names to replace are the template's, the same for every pair: one pattern for the call.
    let pattern: RegExp | undefined;
    for (let i = command.offset; i < command.offset + command.count; i++) {
      const at = command.from + i * command.stepMs;
      const payee = seededPixKey(i % command.payees);
      const cashInCode = codes[2 * (i - command.offset)] as string;
      const names = new Map<string, string>([
        [String(t.cashIn.transaction_id), newCashInTxId(command.locationKey, cashInCode)],
        [String(t.cashIn.internal_code), cashInCode],
        [String(t.cashIn.external_reference), `seed-in-${i}`],
        [String(t.cashIn.end_to_end_id), endToEnd(String(t.cashIn.end_to_end_id), at)],
        [String(t.cashOut.transaction_id), crypto.randomUUID()],
        [String(t.cashOut.internal_code), codes[2 * (i - command.offset) + 1] as string],
        [String(t.cashOut.external_reference), `seed-out-${i}`],
        [String(t.cashOut.end_to_end_id), endToEnd(String(t.cashOut.end_to_end_id), at)],
        [pixKey, payee],
        ...accounts,
      ]);
      pattern ??= namePattern(names.keys());
      const inShift = at - Number(t.cashIn.requested_at);
      const outShift = at + 1 - Number(t.cashOut.requested_at);
      cashIns.push(rewrite(t.cashIn, names, pattern, inShift));
      const withCashOut = i % (command.cashOutEvery ?? 1) === 0;
      for (const e of withCashOut ? entries : t.cashInEntries) {
        const row = rewrite(e, names, pattern, t.cashInEntries.includes(e) ? inShift : outShift);
        const number = String(row.account_number);
        const amount = Number(row.amount);
        const balance = (balances.get(number) ?? 0) + (row.direction === 'CREDIT' ? amount : -amount);
        balances.set(number, balance);
        row.balance_after = balance;
        row.id = `ENT${crypto.randomUUID().replace(/-/g, '').slice(0, 24).toUpperCase()}`;
        entryRows.push(row);
      }
      if (!withCashOut) continue;
      const cashOut = rewrite(t.cashOut, names, pattern, outShift);
      cashOuts.push(cashOut);
      countTowardLimits(
        db,
        Number(cashOut.requested_at),
        String(cashOut.destination_key),
        Number(cashOut.amount),
      );
    }
    insertStoredCashIns(sql, cashIns);
    insertStoredCashOuts(sql, cashOuts);
    insertStoredEntries(sql, entryRows);
    for (const [number, balance] of balances) cursorSql.setBalance(sql, number, balance);
  });
}

/** A new end-to-end id like the template's (same kind and ISPB), stamped at `at`. */
function endToEnd(template: string, at: number): string {
  return newEndToEndId(template[0] as 'E' | 'D', template.slice(1, 9), at);
}

export type BenchOp =
  | { op: 'template'; cashInId: string; cashOutId: string }
  | ({ op: 'seed' } & SeedCommand)
  | { op: 'footprint'; probes: number };

/** bench:footprint's reading of the object: live bytes, hot rows, the filter and its hit rate on fresh references. */
export interface Footprint {
  bytes: number;
  hotCashIns: number;
  hotCashOuts: number;
  filter: { keys: number; bytes: number; ranges: number };
  /** Hashes of the filter waiting in its pending buffer, not yet merged into `filter`'s ranges. */
  pending: number;
  /**
   * What is left of the Cash-In internal-code filter an older version kept beside it: nothing after
   * ledger migration 0025 (codes are unique by construction, internal-codes.ts).
   */
  codeFilter: { keys: number; bytes: number; ranges: number };
  /** Of `probes` creates with a reference never used, the look-ups the filter could not clear. */
  positives: number;
  probes: number;
}

const hotCount = (sql: SqlStorage, kind: 'cash-in' | 'cash-out') =>
  kind === 'cash-in' ? hotCashIns(sql) : hotCashOuts(sql);

function footprint(storage: DurableObjectStorage, probes: number): Footprint {
  const sql = storage.sql;
  const fresh = crypto.randomUUID();
  let positives = 0;
  for (let i = 0; i < probes; i++)
    positives += Number(referenceMayBeArchived(sql, 'cash-in', `probe-${fresh}-${i}`));
  return {
    bytes: sql.databaseSize,
    hotCashIns: hotCount(sql, 'cash-in'),
    hotCashOuts: hotCount(sql, 'cash-out'),
    filter: referenceFilterSize(sql, 'cash-in'),
    pending: pendingReferences(sql, 'cash-in').hashes,
    codeFilter: referenceFilterSize(sql, 'cash-in/code'),
    positives,
    probes,
  };
}

/** The ClientLedger's one bench entry point: fails closed unless bench seeding is enabled. */
export function benchOp(
  env: Env,
  db: LedgerDb,
  storage: DurableObjectStorage,
  op: BenchOp,
): HistoryTemplate | Footprint | undefined {
  if (!isBenchSeedEnabled(env)) throw new Error('bench seeding is off');
  if (op.op === 'template') return readTemplate(storage.sql, op.cashInId, op.cashOutId);
  if (op.op === 'footprint') return footprint(storage, op.probes);
  seedHistory(db, storage, op);
  return undefined;
}
