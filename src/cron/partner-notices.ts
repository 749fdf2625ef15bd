/**
 * What a real partner tells us about received Pix reaches the client ledgers. A callback is only a
 * hint: each end-to-end id it names is read again from the partner (`GET /pix/{e2eid}`) and only
 * that answer goes on. The reconciliation sweep reads the partner's own list (`GET /pix`), paged
 * and window by window, for callbacks that never came. Either way a Pix reaches the ClientLedger
 * its txid names (ids.ts: the TxId begins with the client's location key), which applies it once.
 */

import type { PixOutcome } from '../../durable-objects/ledger/cash-in/partner-pix-ops';
import { ledgerOf } from '../../durable-objects/stubs';
import { clientOfTxId } from '../db/client-keys';
import { findPixCursor, savePixCursor } from '../db/partner-cursors';
import { errorFields, log } from '../infra/log';
import type { BcbApiPixPartner, ReceivedPix } from '../partners/bcb-api-pix/adapter';
import { declaredPartners } from '../partners/config';
import { bcbPartner } from '../partners/port-registry';
import { holdForPartner } from './partner-unapplied';

/** A hint the partner does not confirm, or could not be asked about now. */
export type HintOutcome = PixOutcome | 'not-confirmed' | 'unavailable';

export async function deliverPix(env: Env, ispb: string, pix: ReceivedPix): Promise<PixOutcome[]> {
  // Only an existing client's Durable Object is touched (client-keys.ts says why); money no client
  // can be named for is held in the partner's suspense account.
  const clientId = pix.txid === undefined ? undefined : await clientOfTxId(env, pix.txid);
  if (!clientId) return holdForPartner(env, ispb, pix);
  return ledgerOf(env, clientId).partnerPix(ispb, pix);
}

/**
 * Re-reads each hinted Pix from the partner and applies what the partner says. The payer a
 * partner reports in its authenticated callback (Efí documents `gnExtras.pagador` there) fills in
 * a re-read that carries none; money and ids always come from the re-read.
 */
export async function applyPixHints(
  env: Env,
  partner: BcbApiPixPartner,
  endToEndIds: readonly string[],
  reportedPayers: ReadonlyMap<string, NonNullable<ReceivedPix['payer']>> = new Map(),
): Promise<Record<string, HintOutcome[]>> {
  const results: Record<string, HintOutcome[]> = {};
  for (const endToEndId of new Set(endToEndIds)) {
    const read = await partner.receivedPix(endToEndId);
    if (!read.ok) results[endToEndId] = [read.retryable ? 'unavailable' : 'not-confirmed'];
    else if (read.value?.endToEndId !== endToEndId) results[endToEndId] = ['not-confirmed'];
    else
      results[endToEndId] = await deliverPix(
        env,
        partner.ispb,
        withReportedPayer(read.value, reportedPayers),
      );
  }
  return results;
}

function withReportedPayer(
  pix: ReceivedPix,
  reported: ReadonlyMap<string, NonNullable<ReceivedPix['payer']>>,
): ReceivedPix {
  const hinted = reported.get(pix.endToEndId);
  if (!pix.payer || pix.payer.document !== undefined || hinted?.document === undefined) return pix;
  return { ...pix, payer: hinted };
}

/** Sweep windows end this long before now: a PSP may list a Pix a little after its `horario`. */
export const SWEEP_LAG_MS = 60_000;
/** Each window starts this long before the previous one ended, for Pix listed late. */
export const SWEEP_OVERLAP_MS = 60_000;
/** A window is at most this long, so a partner down for a day is caught up window by window. */
export const SWEEP_MAX_WINDOW_MS = 15 * 60_000;
/** Pages read per partner per run; the cursor keeps the page, so the next run goes on from there. */
export const SWEEP_MAX_PAGES = 5;

async function sweepPartner(env: Env, partner: BcbApiPixPartner, now: number): Promise<void> {
  const saved = await findPixCursor(env, partner.ispb);
  let cursor = saved ?? { ispb: partner.ispb, windowFrom: 0, windowTo: now - SWEEP_LAG_MS, page: -1 };
  if (cursor.page === -1) {
    const windowFrom = cursor.windowTo - SWEEP_OVERLAP_MS;
    const windowTo = Math.min(now - SWEEP_LAG_MS, windowFrom + SWEEP_MAX_WINDOW_MS);
    if (windowTo <= cursor.windowTo && saved) return; // nothing new to read yet
    cursor = { ispb: partner.ispb, windowFrom, windowTo, page: 0 };
  }
  for (let read = 0; read < SWEEP_MAX_PAGES && cursor.page !== -1; read++) {
    const page = await partner.receivedPixPage(
      new Date(cursor.windowFrom),
      new Date(cursor.windowTo),
      cursor.page,
    );
    if (!page.ok) break; // the partner is down: the same page is asked again next run
    // A ledger that fails leaves the page to be read again; applying a Pix twice moves nothing.
    for (const pix of page.value.pix) await deliverPix(env, partner.ispb, pix);
    cursor = { ...cursor, page: cursor.page + 1 >= page.value.pages ? -1 : cursor.page + 1 };
    await savePixCursor(env, cursor, now);
  }
  if (!saved && cursor.page === 0) await savePixCursor(env, cursor, now);
}

/** Cron: every declared `bcb-api-pix` partner's recent received Pix, against the ledgers. */
export async function reconcilePartnerPix(env: Env, now = Date.now()): Promise<void> {
  for (const declared of declaredPartners(env)) {
    if (declared.kind !== 'bcb-api-pix') continue;
    try {
      const partner = bcbPartner(env, declared.ispb);
      if (partner) await sweepPartner(env, partner, now);
    } catch (error) {
      log('error', 'partner reconciliation failed', { ispb: declared.ispb, ...errorFields(error) });
    }
  }
}
