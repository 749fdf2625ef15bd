/**
 * One step of an unapplied receipt's return at its partner (docs/contract.md, Unapplied receipts):
 * ask for the devolution under its fixed id, then read its outcome. Every call is safe to repeat:
 * the partner keys the devolution by that id, so a step re-run after a crash or a retry can never
 * return the money twice. The caller records what the step says, in its own store.
 */
import type { ReturnStage } from '../domain/unapplied';
import type { BcbApiPixPartner } from './bcb-api-pix/adapter';

export interface ReturnInFlight {
  endToEndId: string;
  returnId: string;
  amount: number;
  stage: ReturnStage;
}

export type ReturnStep =
  | { stage: 'SENT' }
  | { stage: 'RETURNED'; returnEndToEndId: string; returnedAt: number }
  | { stage: 'FAILED'; failure: string }
  /** Nothing changed: ask again later (the partner is down, or the devolution is in flight). */
  | { stage: 'WAIT' };

/** Asks the partner for the devolution (REQUESTING) or for its outcome (SENT). */
export async function stepReturn(partner: BcbApiPixPartner, r: ReturnInFlight): Promise<ReturnStep> {
  if (r.stage === 'REQUESTING') {
    const sent = await partner.sendDevolution({
      endToEndId: r.returnId,
      originalEndToEndId: r.endToEndId,
      amountCents: r.amount,
    });
    if (sent.ok) return { stage: 'SENT' };
    if (sent.retryable) return { stage: 'WAIT' };
    // Refused: the devolution may exist already (asked before a crash, answered now as a conflict).
    const known = await partner.devolutionStatus(r.endToEndId, r.returnId);
    if (known.state === 'UNKNOWN') return { stage: 'FAILED', failure: sent.failureCode };
    return outcomeOf(known);
  }
  const status = await partner.devolutionStatus(r.endToEndId, r.returnId);
  // Never made at the partner (its request was lost): ask again, under the same id.
  if (status.state === 'UNKNOWN') return stepReturn(partner, { ...r, stage: 'REQUESTING' });
  return outcomeOf(status);
}

/**
 * A FAILED return read again (the network may still settle it: the PSP's NAO_REALIZADO is not always
 * its last word). Only read, never asked again: a devolution the bank refused is not re-sent by itself.
 */
export async function readFailedReturn(partner: BcbApiPixPartner, r: ReturnInFlight): Promise<ReturnStep> {
  const status = await partner.devolutionStatus(r.endToEndId, r.returnId);
  return status.state === 'SETTLED' ? outcomeOf(status) : { stage: 'WAIT' };
}

function outcomeOf(status: Awaited<ReturnType<BcbApiPixPartner['devolutionStatus']>>): ReturnStep {
  if (status.state === 'SETTLED')
    return {
      stage: 'RETURNED',
      returnEndToEndId: status.endToEndId,
      returnedAt: Number.isFinite(status.settledAt) ? status.settledAt : Date.now(),
    };
  if (status.state === 'FAILED') return { stage: 'FAILED', failure: status.failureCode };
  return { stage: 'SENT' };
}
