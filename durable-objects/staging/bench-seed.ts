/**
 * Bench-only history seeding (`npm run bench`'s `@history` twins, docs/benchmark.md): a client's past as
 * copies of one real paid Cash-In and one real COMPLETED Cash-Out, written straight into the rows
 * those operations leave for good — cash_ins, cash_outs, ledger_entries (balance_after chained,
 * accounts.balance kept equal to the last one), limit_totals (through countTowardLimits, the
 * reservation's own code). What a real one writes only for a while (outbox, idempotency keys, tasks,
 * webhook deliveries, health observations) is not copied: it is published and pruned within days.
 * Ids are fresh from the same generators, times shifted, text naming the template's ids rewritten.
 * Reachable only when `isBenchSeedEnabled` (staging AND BENCH_SEED=on, which only bench/run.mjs
 * sets); test/storage/bench-seed.test.ts proves a seeded pair's rows equal a real pair's.
 */
import { isBenchSeedEnabled } from '../../src/config';
import { newCashInTxId, newEndToEndId, newInternalCode } from '../../src/domain/ids';
import { internalCodeTaken } from '../ledger/cash-in/cash-in-store';
import { cashOutCodeTaken } from '../ledger/cash-out/cash-out-store';
import { countTowardLimits } from '../ledger/cash-out/limit-totals';
import type { LedgerDb } from '../ledger/db';

type Row = Record<string, SqlStorageValue>;

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
}

export function readTemplate(sql: SqlStorage, cashInId: string, cashOutId: string): HistoryTemplate {
  const one = (query: string, id: string) => sql.exec(query, id).toArray()[0] as Row | undefined;
  const cashIn = one('SELECT * FROM cash_ins WHERE transaction_id = ?', cashInId);
  const cashOut = one('SELECT * FROM cash_outs WHERE transaction_id = ?', cashOutId);
  if (cashIn?.status !== 'PAID' || cashOut?.status !== 'COMPLETED')
    throw new Error('template: a PAID Cash-In and a COMPLETED Cash-Out are needed');
  const entries = (ref: string) =>
    sql.exec('SELECT * FROM ledger_entries WHERE ref = ? ORDER BY seq', ref).toArray() as Row[];
  return {
    cashIn,
    cashInEntries: entries(`cash-in:${cashInId}`),
    cashOut,
    cashOutEntries: entries(`cash-out:${cashOutId}`),
    accounts: sql.exec('SELECT number, ispb, type FROM accounts').toArray() as Row[],
  };
}

/** The payee of index k: an EVP key of its own (lower-case, as normalized). */
export const seededPixKey = (k: number) => `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;

function rewrite(row: Row, names: Map<string, string>, shift: number): Row {
  const out: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === 'seq') continue;
    if (column.endsWith('_at') && typeof value === 'number') out[column] = value + shift;
    else if (typeof value === 'string') {
      let text = value;
      for (const [from, to] of names) text = text.split(from).join(to);
      out[column] = text;
    } else out[column] = value;
  }
  return out;
}

function insert(sql: SqlStorage, table: string, row: Row): void {
  const columns = Object.keys(row);
  sql.exec(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    ...columns.map((c) => row[c] as SqlStorageValue),
  );
}

/** Writes `count` pairs; refuses to write history before entries that already exist. */
export function seedHistory(db: LedgerDb, storage: DurableObjectStorage, command: SeedCommand): void {
  const { template: t } = command;
  const sql = storage.sql;
  const pixKey = (JSON.parse(String(t.cashOut.destination)) as { pixKey: string }).pixKey;
  const entries = [...t.cashInEntries, ...t.cashOutEntries];
  storage.transactionSync(() => {
    const first = command.from + command.offset * command.stepMs;
    const later = sql.exec('SELECT count(*) AS n FROM ledger_entries WHERE created_at > ?', first).one();
    if (Number(later.n) > 0) throw new Error('seeding: history must come before existing entries');
    const balances = new Map<string, number>();
    const accounts = new Map<string, string>();
    for (const a of t.accounts) {
      const query = 'SELECT number, balance FROM accounts WHERE ispb = ? AND type = ?';
      const row = sql.exec(query, a.ispb, a.type).toArray()[0];
      if (!row) throw new Error(`seeding: no ${String(a.type)} account at ${String(a.ispb)} here`);
      accounts.set(String(a.number), String(row.number));
      balances.set(String(row.number), Number(row.balance));
    }
    for (let i = command.offset; i < command.offset + command.count; i++) {
      const at = command.from + i * command.stepMs;
      const payee = seededPixKey(i % command.payees);
      const cashInCode = freeCode((c) => internalCodeTaken(db, c));
      const names = new Map<string, string>([
        [String(t.cashIn.transaction_id), newCashInTxId(command.locationKey, cashInCode)],
        [String(t.cashIn.internal_code), cashInCode],
        [String(t.cashIn.external_reference), `seed-in-${i}`],
        [String(t.cashIn.end_to_end_id), endToEnd(String(t.cashIn.end_to_end_id), at)],
        [String(t.cashOut.transaction_id), crypto.randomUUID()],
        [String(t.cashOut.internal_code), freeCode((c) => cashOutCodeTaken(db, c))],
        [String(t.cashOut.external_reference), `seed-out-${i}`],
        [String(t.cashOut.end_to_end_id), endToEnd(String(t.cashOut.end_to_end_id), at)],
        [pixKey, payee],
        ...accounts,
      ]);
      const inShift = at - Number(t.cashIn.requested_at);
      const outShift = at + 1 - Number(t.cashOut.requested_at);
      insert(sql, 'cash_ins', rewrite(t.cashIn, names, inShift));
      const cashOut = rewrite(t.cashOut, names, outShift);
      insert(sql, 'cash_outs', cashOut);
      for (const e of entries) {
        const row = rewrite(e, names, t.cashInEntries.includes(e) ? inShift : outShift);
        const number = String(row.account_number);
        const amount = Number(row.amount);
        const balance = (balances.get(number) ?? 0) + (row.direction === 'CREDIT' ? amount : -amount);
        balances.set(number, balance);
        row.balance_after = balance;
        row.id = `ENT${crypto.randomUUID().replace(/-/g, '').slice(0, 24).toUpperCase()}`;
        insert(sql, 'ledger_entries', row);
      }
      countTowardLimits(
        db,
        Number(cashOut.requested_at),
        String(cashOut.destination_key),
        Number(cashOut.amount),
      );
    }
    for (const [number, balance] of balances)
      sql.exec('UPDATE accounts SET balance = ? WHERE number = ?', balance, number);
  });
}

/** A 7-character service code not taken yet, drawn as the operations draw theirs. */
function freeCode(taken: (code: string) => boolean): string {
  let code = newInternalCode();
  while (taken(code)) code = newInternalCode();
  return code;
}

/** A new end-to-end id like the template's (same kind and ISPB), stamped at `at`. */
function endToEnd(template: string, at: number): string {
  return newEndToEndId(template[0] as 'E' | 'D', template.slice(1, 9), at);
}

export type BenchOp =
  | { op: 'template'; cashInId: string; cashOutId: string }
  | ({ op: 'seed' } & SeedCommand);

/** The ClientLedger's one bench entry point: fails closed unless bench seeding is enabled. */
export function benchOp(
  env: Env,
  db: LedgerDb,
  storage: DurableObjectStorage,
  op: BenchOp,
): HistoryTemplate | undefined {
  if (!isBenchSeedEnabled(env)) throw new Error('bench seeding is off');
  if (op.op === 'template') return readTemplate(storage.sql, op.cashInId, op.cashOutId);
  seedHistory(db, storage, op);
  return undefined;
}
