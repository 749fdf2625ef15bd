/**
 * How every Cash-Out is written at its 202: a single one is a batch of one. One row builder (the
 * destination kept in its canonical form, as it is sent to the partner) and one insert write a
 * POST /cash-out and each item of a POST /cash-out/batch, so an item is stored exactly as the same
 * body sent alone (docs/contract.md, Batch Cash-Out).
 */

import type { CashOutAcceptedBody, cashOutInput } from '../../../src/api/cash-out/schemas';
import { canonicalDestination, cashOutView, destinationKey } from '../../../src/domain/cash-out';
import { newUuid } from '../../../src/domain/ids';
import { sqlOf } from '../db';
import type { LedgerContext } from '../ledger-context';
import { OutboxBuffer } from '../webhooks/events';
import { wakeExecutor } from './cash-out-exec';
import { type CashOutRow, insertCashOuts, NOT_DECIDED } from './cash-out-store';

/** A validated Cash-Out body as the API hands it over (amount in centavos): POST /cash-out or one batch item. */
export type CreateCashOutInput = ReturnType<typeof cashOutInput>;

/**
 * What a 202 says of each accepted Cash-Out, typed by the API's schema: POST /cash-out adds its
 * requestedAt, a batch item its index.
 */
export type AcceptedCashOut = Omit<CashOutAcceptedBody, 'requestedAt'>;

export function acceptedCashOut(row: CashOutRow): AcceptedCashOut {
  return {
    transactionId: row.transactionId,
    internalCode: row.internalCode,
    externalReference: row.externalReference,
    status: 'PROCESSING',
  };
}

/** A new Cash-Out's row, RECEIVED and due now (its seq is the insert's). */
export function newCashOutRow(input: CreateCashOutInput, internalCode: string, now: number): CashOutRow {
  const destination = canonicalDestination(input.payee.destination);
  return {
    ...NOT_DECIDED,
    seq: 0,
    transactionId: newUuid(),
    internalCode,
    externalReference: input.externalReference,
    status: 'PROCESSING',
    stage: 'RECEIVED',
    amount: input.amountCents,
    description: input.description ?? null,
    webhookUrl: input.webhookUrl ?? null,
    payeeName: input.payee.name,
    payeeDocument: input.payee.document,
    destination,
    destinationKey: destinationKey(destination),
    requestedAt: now,
    nextAt: now,
  };
}

/**
 * Inside the caller's transaction: the rows in one statement (their seqs set, contiguous in order),
 * their CASHOUT_REQUESTED events in another, and one executor wake-up. The executor's reservation
 * pass schedules the events' dispatch (cash-out-book.ts): one task write per pass, not per 202.
 * Returns the first and last seq.
 */
export function writeCashOuts(ledger: LedgerContext, rows: CashOutRow[], now: number): [number, number] {
  const returned = insertCashOuts(sqlOf(ledger.db), rows);
  const seqOf = new Map(returned.map((r) => [r.id, r.seq]));
  const first = seqOf.get(rows[0]?.transactionId ?? '') ?? 0;
  // One transaction, one writer: the seqs are contiguous in item order, which a batch's counts and
  // the executor's item-order reservations rely on.
  if (returned.length !== rows.length || rows.some((r, i) => seqOf.get(r.transactionId) !== first + i))
    throw new Error('Cash-Outs are not contiguous in item order');
  const events = new OutboxBuffer(ledger);
  rows.forEach((row, i) => {
    row.seq = first + i;
    events.webhook({
      aggregateId: row.transactionId,
      eventType: 'CASHOUT_REQUESTED',
      data: cashOutView(row),
      webhookUrl: row.webhookUrl,
      at: now,
    });
  });
  events.flush();
  wakeExecutor(ledger, now);
  return [first, first + rows.length - 1];
}
