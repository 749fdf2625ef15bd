/**
 * What reaches a Cash-In's dispute from outside the object (docs/contract.md, Disputes): the sandbox's
 * open and close, a real partner's infraction notices (callback or sweep), and the client's defense.
 * The rules are dispute-ops.ts; here the defense goes to the partner before it is recorded. The
 * command's declaration (disputeOp, ../operations.ts) brings an archived Cash-In back hot first and
 * lets the sandbox's commands act only on a simulated partner's.
 */

import type { CashInView } from '../../../src/domain/cash-in';
import { newEndToEndId } from '../../../src/domain/ids';
import { failure, type OperationResult } from '../../../src/domain/result';
import { partnerPort } from '../../../src/partners/port-registry';
import type { LedgerContext } from '../ledger-context';
import { bankReturn } from './bank-returns';
import { cashInNotFound, findCashIn } from './cash-in-store';
import {
  closeDispute,
  type DisputeOutcome,
  defenseRefusal,
  isOpenDispute,
  openDispute,
  recordDefense,
  SANDBOX_RESPOND_MS,
} from './dispute-ops';

export type DisputeCommand =
  /** The sandbox network opens one now; `amountCents` above what can be blocked is refused. */
  | { kind: 'sandbox-open'; id: string; amountCents?: number }
  /** The sandbox decides; ACCEPTED also performs the bank's return of the blocked amount. */
  | { kind: 'sandbox-close'; id: string; outcome: DisputeOutcome }
  /** A real partner's infraction as it reports it (its id, deadline and blocked amount). */
  | {
      kind: 'partner-open';
      /** The disputed payment's end-to-end id. */
      id: string;
      disputeId: string;
      openedAt: number;
      respondBy: number;
      amountCents?: number;
    }
  /** A real partner's decision; the return of an ACCEPTED one arrives as a bank return. */
  | { kind: 'partner-close'; id: string; outcome: DisputeOutcome }
  | { kind: 'defend'; id: string; text: string };

export async function runDisputeCommand(
  ledger: LedgerContext,
  command: DisputeCommand,
): Promise<OperationResult<CashInView>> {
  const now = Date.now();
  switch (command.kind) {
    case 'sandbox-open':
      return openDispute(ledger, command.id, {
        disputeId: `MED-${newEndToEndId('D', 'SANDBOX0', now).slice(-16)}`,
        openedAt: now,
        respondBy: now + SANDBOX_RESPOND_MS,
        strictAmount: true,
        ...(command.amountCents !== undefined && { amountCents: command.amountCents }),
      });
    case 'sandbox-close':
      return sandboxClose(ledger, command.id, command.outcome, now);
    case 'partner-open': {
      const { id, kind: _, ...opened } = command;
      return openDispute(ledger, id, opened);
    }
    case 'partner-close':
      return closeDispute(ledger, command.id, command.outcome, now);
    case 'defend':
      return defend(ledger, command.id, command.text, now);
  }
}

async function sandboxClose(
  ledger: LedgerContext,
  id: string,
  outcome: DisputeOutcome,
  now: number,
): Promise<OperationResult<CashInView>> {
  const row = findCashIn(ledger.db, id);
  if (!row) return cashInNotFound();
  if (!isOpenDispute(row))
    return failure({ code: 'RULE_VIOLATION', detail: 'This Cash-In has no open dispute' });
  if (outcome !== 'ACCEPTED' || !row.disputeBlockedAmount) return closeDispute(ledger, id, outcome, now);
  // The payer's bank takes the blocked money back: the return closes the dispute ACCEPTED and
  // consumes its hold, one transaction (bank-returns.ts).
  const endToEndId = newEndToEndId('D', row.partnerIspb, now);
  return bankReturn(ledger, id, 'FRAUD', {
    id: endToEndId,
    endToEndId,
    amountCents: row.disputeBlockedAmount,
  });
}

/** Defenses on their way to the partner, by transactionId: one object per client, so one isolate sees them all. */
const defending = new Set<string>();

/**
 * Checked, sent to the partner, then recorded; a partner that refuses it leaves the dispute OPEN. A
 * second defense while the first is being sent is refused before anything goes out.
 */
async function defend(
  ledger: LedgerContext,
  id: string,
  text: string,
  now: number,
): Promise<OperationResult<CashInView>> {
  const row = findCashIn(ledger.db, id);
  if (!row) return cashInNotFound();
  const refusal = defenseRefusal(row, now);
  if (refusal) return failure({ code: 'RULE_VIOLATION', detail: refusal });
  if (defending.has(row.transactionId))
    return failure({ code: 'RULE_VIOLATION', detail: 'A defense of this dispute is being sent' });
  defending.add(row.transactionId);
  try {
    const port = partnerPort(ledger.env, row.partnerIspb);
    const sent = port.sendDisputeDefense
      ? await port.sendDisputeDefense({ disputeId: row.disputeId as string, text })
      : ({ ok: true } as const);
    if (!sent.ok)
      return failure({
        code: 'RULE_VIOLATION',
        detail: `The settlement partner refused the defense (${sent.failureCode})`,
      });
    return recordDefense(ledger, id, Date.now());
  } finally {
    defending.delete(row.transactionId);
  }
}
