/**
 * The views rendered by SQLite (durable-objects/ledger/reads/view-sql.ts) equal JSON.stringify of the
 * views built in TypeScript (src/domain cashInView / cashOutView) for any row: random statuses,
 * optional columns present or not, any Unicode in the texts, amounts from 0 to the largest
 * accepted, times across a century. Rows go in through drizzle, as the ledger writes them.
 */
import { runInDurableObject } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LedgerDb } from '../../durable-objects/ledger/db';
import { cashInJsonAt, cashOutJsonAt } from '../../durable-objects/ledger/reads/read-json';
import { cashIns, cashOuts } from '../../durable-objects/ledger/schema';
import { cashInView } from '../../src/domain/cash-in';
import { cashOutView } from '../../src/domain/cash-out';
import { FAILURE_CODES } from '../../src/domain/failure-codes';
import { ledgerStub } from '../support/ledger';

const text = fc.oneof(
  fc.constant(''),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 6 }),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const time = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) });
const cents = fc.oneof(fc.integer({ min: 0, max: 999_999_999_999 }), fc.integer({ min: 0, max: 1000 }));
const plain = { noNullPrototype: true } as const;
const bank = maybe(fc.record({ ispb: text, bank: text, branch: text, account: text }, plain));
const code = maybe(fc.oneof(fc.constantFrom(...FAILURE_CODES), text));

const cashIn = fc.record({
  status: fc.constantFrom('AWAITING_PAYMENT', 'PAID', 'EXPIRED', 'REFUNDED', 'CANCELLED' as const),
  amount: cents,
  externalReference: text,
  payerName: text,
  payerDocument: text,
  payerBank: bank,
  // Who paid: name and document only where the partner reported them.
  paidBy: maybe(
    fc.record(
      {
        name: text,
        document: text,
        bankData: fc.record(
          { ispb: text, bank: text, branch: text, account: text },
          { ...plain, requiredKeys: ['ispb', 'bank'] },
        ),
        allowed: fc.boolean(),
      },
      { ...plain, requiredKeys: ['bankData', 'allowed'] },
    ),
  ),
  settlement: bank,
  endToEndId: maybe(text),
  refundEndToEndId: maybe(text),
  refundState: fc.constantFrom('NONE', 'PROCESSING', 'DONE', 'FAILED' as const),
  refundFailureCode: code,
  reason: maybe(text),
  requestedAt: time,
  expiresAt: time,
  paidAt: maybe(time),
  refundedAt: maybe(time),
  cancelledAt: maybe(time),
});

const cashOut = fc.record({
  status: fc.constantFrom('PROCESSING', 'PENDING', 'COMPLETED', 'CANCELLED', 'REFUNDED' as const),
  amount: cents,
  externalReference: text,
  payeeName: text,
  payeeDocument: text,
  destination: fc.oneof(
    fc.record(
      { type: fc.constant('PIX' as const), pixKeyType: fc.constant('EVP' as const), pixKey: text },
      plain,
    ),
    fc.record(
      {
        type: fc.constant('BANK_ACCOUNT' as const),
        bankAccount: fc.record(
          { ispb: text, branch: text, account: text, accountType: fc.constant('CACC' as const) },
          plain,
        ),
      },
      plain,
    ),
  ),
  payeeBank: bank,
  settlement: bank,
  endToEndId: maybe(text),
  refundEndToEndId: maybe(text),
  failureCode: code,
  reason: maybe(text),
  requestedAt: time,
  completedAt: maybe(time),
  cancelledAt: maybe(time),
  refundedAt: maybe(time),
});

describe('views rendered by SQLite', () => {
  it('equal the TypeScript views byte for byte, Cash-In and Cash-Out', async () => {
    await runInDurableObject(ledgerStub(crypto.randomUUID()), (instance, state) => {
      const db = (instance as unknown as { db: LedgerDb }).db;
      let n = 0;
      fc.assert(
        fc.property(cashIn, (row) => {
          const id = `ci-${++n}`;
          const stored = db
            .insert(cashIns)
            .values({ ...row, transactionId: id, internalCode: id, partnerIspb: '1', flow: 'PIX' })
            .returning()
            .get();
          const sqlText = { json: cashInJsonAt(state.storage.sql, stored.seq) };
          db.delete(cashIns).where(eq(cashIns.seq, stored.seq)).run();
          expect(sqlText?.json).toBe(JSON.stringify(cashInView(stored)));
        }),
        { numRuns: 400 },
      );
      fc.assert(
        fc.property(cashOut, (row) => {
          const id = `co-${++n}`;
          const stored = db
            .insert(cashOuts)
            .values({ ...row, transactionId: id, internalCode: id, stage: 'DONE', destinationKey: id })
            .returning()
            .get();
          const sqlText = { json: cashOutJsonAt(state.storage.sql, stored.seq) };
          db.delete(cashOuts).where(eq(cashOuts.seq, stored.seq)).run();
          expect(sqlText?.json).toBe(JSON.stringify(cashOutView(stored)));
        }),
        { numRuns: 400 },
      );
    });
  });
});
