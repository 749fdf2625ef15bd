/**
 * Unapplied receipts: money a partner reported that no Cash-In can take (docs/contract.md,
 * Unapplied receipts). It is held for the payer in a suspense account and returned in full through
 * the partner's devolution. Pure rules here; the stores are the ClientLedger's table (money a
 * client's txid names) and D1's (money no client can be named for).
 */
import { utcStamp } from './ids';
import { MED_WINDOW_MS, nextRecheckAt } from './med-recheck';

export const UNAPPLIED_REASONS = ['UNKNOWN_CHARGE', 'AMOUNT_MISMATCH', 'NOT_PAYABLE', 'DUPLICATE'] as const;
export type UnappliedReason = (typeof UNAPPLIED_REASONS)[number];

/**
 * Where the return stands. REQUESTING: booked, the devolution not yet accepted by the partner;
 * SENT: accepted, its outcome awaited; RETURNED is final. FAILED (refused, or NAO_REALIZADO) is
 * never asked again, but is read again until the MED window ends: the bank may still settle it.
 */
export const RETURN_STAGES = ['REQUESTING', 'SENT', 'RETURNED', 'FAILED'] as const;
export type ReturnStage = (typeof RETURN_STAGES)[number];

export const UNAPPLIED_STATUSES = ['PROCESSING', 'RETURNED', 'FAILED'] as const;
export type UnappliedStatus = (typeof UNAPPLIED_STATUSES)[number];

export function statusOfStage(stage: ReturnStage): UnappliedStatus {
  return stage === 'RETURNED' || stage === 'FAILED' ? stage : 'PROCESSING';
}

export function stagesOfStatus(status: UnappliedStatus): ReturnStage[] {
  return status === 'PROCESSING' ? ['REQUESTING', 'SENT'] : [status];
}

export interface UnappliedReceipt {
  id: string;
  ispb: string;
  endToEndId: string;
  txid: string | null;
  clientId: string | null;
  amount: number;
  receivedAt: number;
  reason: UnappliedReason;
  /** The devolution's id at the partner (returnIdOf): the same for every attempt. */
  returnId: string;
  stage: ReturnStage;
  /** The return's end-to-end id (pacs.004 RtrId) once the partner settled it. */
  returnEndToEndId: string | null;
  returnedAt: number | null;
  failure: string | null;
}

/**
 * When a FAILED return is read again: the Cash-In's re-read schedule (med-recheck.ts), thinning out
 * with the payment's age; undefined once the window a bank has to move that money is over.
 */
export function nextFailedReadAt(receivedAt: number, now: number): number | undefined {
  return nextRecheckAt(receivedAt, now);
}

/** Until when a FAILED return is still read at the partner (after it, only the operator can act). */
export const failedReadUntil = (receivedAt: number): number => receivedAt + MED_WINDOW_MS;

async function digestHex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The receipt's public id: the same for the same Pix, wherever and however often it is reported. */
export async function receiptIdOf(endToEndId: string): Promise<string> {
  return `UNR${(await digestHex(`receipt:${endToEndId}`)).slice(0, 29).toUpperCase()}`;
}

/**
 * The devolution id of a receipt's return, derived from the payment's end-to-end id alone: a retry,
 * a replayed callback or a recovery after a crash asks the partner for the same devolution, which
 * the partner makes at most once. It has an end-to-end id's form (D, the receiving ISPB, the
 * payment's minute, 11 characters), within API Pix's `[a-zA-Z0-9]{1,35}`.
 */
export async function returnIdOf(ispb: string, endToEndId: string, receivedAt: number): Promise<string> {
  const hex = (await digestHex(`return:${endToEndId}`)).slice(0, 11).toUpperCase();
  return `D${ispb}${utcStamp(receivedAt)}${hex}`;
}

/** An unapplied receipt as GET /admin/unapplied shows it. */
export function unappliedView(r: UnappliedReceipt) {
  return {
    id: r.id,
    ispb: r.ispb,
    endToEndId: r.endToEndId,
    ...(r.txid !== null && { txid: r.txid }),
    ...(r.clientId !== null && { clientId: r.clientId }),
    amount: r.amount / 100,
    receivedAt: new Date(r.receivedAt).toISOString(),
    reason: r.reason,
    return: {
      id: r.returnId,
      status: statusOfStage(r.stage),
      ...(r.returnEndToEndId !== null && { endToEndId: r.returnEndToEndId }),
      ...(r.returnedAt !== null && { returnedAt: new Date(r.returnedAt).toISOString() }),
      ...(r.failure !== null && { failure: r.failure }),
      ...(r.stage === 'FAILED' && { readUntil: new Date(failedReadUntil(r.receivedAt)).toISOString() }),
    },
  };
}
export type UnappliedView = ReturnType<typeof unappliedView>;
