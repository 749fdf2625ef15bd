/**
 * The Cash-In state machine (docs/contract.md, Cash-In lifecycle), executed inside the client's
 * Durable Object. Each transition is one storage transaction that moves state, ledger entries,
 * the outbox event and the health observation together.
 */

import { buildDynamicBrCode, pspBrCode } from '../../../src/domain/brcode';
import {
  type CashInCreated,
  type CashInRecurrence,
  type CashInView,
  cashInView,
} from '../../../src/domain/cash-in';
import { answerAbout } from '../../../src/domain/fixed-fields';
import { newCashInTxId } from '../../../src/domain/ids';
import { merchantFields } from '../../../src/domain/merchant';
import { amountFromCents } from '../../../src/domain/money';
import type { PayerPolicy } from '../../../src/domain/payer-rules';
import { present } from '../../../src/domain/present';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { formatBrt } from '../../../src/domain/time';
import { unpaidOnly } from '../../../src/domain/transitions';
import { log } from '../../../src/infra/log';
import { reportsPayer } from '../../../src/partners/config';
import { CHARGE_PAID } from '../../../src/partners/port';
import { partnerPort } from '../../../src/partners/port-registry';
import { referencesArchived } from '../archive/archive-reads';
import { referencesToAsk } from '../archive/reference-filter';
import { takeCodes } from '../internal-codes';
import type { Remember } from '../ledger/idempotency';
import { firstTransactionalIspb, transactionalAccounts } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';
import { emitWithObservation, OUTBOX_COALESCE_MS, observe } from '../webhooks/events';
import {
  type CashInRow,
  cashInEvent,
  cashInNotFound,
  emitCashIn,
  findCashIn,
  insertCashIn,
  referenceTaken,
  updateCashIn,
} from './cash-in-store';

/**
 * Late settlements already in flight are accepted this long after `expiredAt` (docs/contract.md, Cash-In
 * lifecycle).
 */
export const LATE_SETTLEMENT_GRACE_MS = 5 * 60_000;

export interface CreateCashInInput {
  amountCents: number;
  externalReference: string;
  expirationInMinutes: number;
  webhookUrl?: string;
  payer: { name: string; document: string };
  openFinanceRedirectUrl?: string;
  locationPrefix: string;
  paymentUrlPrefix: string;
  /** The client's location key: it begins the TxId (ids.ts). */
  locationKey: string;
  /** Expiry instant when it is not creation + `expirationInMinutes` (a recurring charge's last attempt). */
  expiresAt?: number;
  /** DECLARED_PAYER: only a partner that reports who paid may receive the charge. */
  payerPolicy?: PayerPolicy;
  /** A real partner's Pix Automático cycle (`PUT /cobr`): debited under the authorization, no BR Code. */
  recurrence?: { idRec: string; dueDate: string };
  /** Ids fixed by the caller (a cycle's charge: internal-codes.ts `cycleCode`), the same on every attempt. */
  ids?: { internalCode: string; transactionId: string };
  /** A Pix Automático cycle's charge, as its view shows it: stored with the Cash-In, so every event carries it. */
  recurringCharge?: CashInRecurrence;
}

/** What another aggregate writes in the new Cash-In's own transaction (a recurring charge's link). */
export type AlongWithCashIn = (transactionId: string) => void;

/**
 * The partner that receives a new charge: the client's first partner; under DECLARED_PAYER its
 * first partner that reports who paid (docs/contract.md, Who paid), else none.
 */
function chargePartner(ledger: LedgerContext, policy: PayerPolicy | undefined): string | undefined {
  const ispb = firstTransactionalIspb(ledger.db);
  if (ispb === undefined) throw new Error('client has no TRANSACTIONAL account');
  if (policy !== 'DECLARED_PAYER' || reportsPayer(ledger.env, ispb)) return ispb;
  return transactionalAccounts(ledger.db).find((a) => reportsPayer(ledger.env, a.ispb))?.ispb;
}

const duplicated = (reference: string) =>
  failure({
    code: 'DUPLICATED_EXTERNAL_REFERENCE',
    detail: `externalReference '${reference}' was already used for a Cash-In`,
  });

export async function createCashIn(
  ledger: LedgerContext,
  input: CreateCashInInput,
  creating: Set<string>,
  remember: Remember,
  along?: AlongWithCashIn,
): Promise<OperationResult<CashInCreated>> {
  const now = Date.now();
  const reference = input.externalReference;
  if (creating.has(reference) || referenceTaken(ledger.db, reference)) return duplicated(reference);
  creating.add(reference);
  try {
    // Archived Cash-Ins keep their references: asked of the archive registry after the hot check,
    // only when the filter cannot clear it, none while nothing was ever archived (archive-index.ts);
    // a reference the registry holds is confirmed in its segment (archive-reads.ts referencesArchived).
    const sql = ledger.storage.sql;
    const used = await referencesArchived(ledger, 'cash-in', referencesToAsk(sql, 'cash-in', [reference]));
    if (used.has(reference)) return duplicated(reference);
    // Unique by construction (internal-codes.ts): taken now, before the partner sees the TxId.
    const internalCode = input.ids?.internalCode ?? (takeCodes(sql, 1)[0] as string);
    const transactionId = input.ids?.transactionId ?? newCashInTxId(input.locationKey, internalCode);
    const partnerIspb = chargePartner(ledger, input.payerPolicy);
    if (partnerIspb === undefined)
      return failure({
        code: 'RULE_VIOLATION',
        detail:
          "payerPolicy is DECLARED_PAYER and none of this client's settlement partners reports " +
          'who paid, so no payment could be checked; nothing was registered',
      });
    const expiresAt = input.expiresAt ?? now + input.expirationInMinutes * 60_000;
    const port = partnerPort(ledger.env, partnerIspb);
    // Everything that could refuse this Cash-In runs before the charge exists at the partner.
    if (input.openFinanceRedirectUrl && port.issuesBrCode)
      return failure({
        code: 'RULE_VIOLATION',
        detail:
          'Open finance payment pages are offered by the sandbox partner only; on this partner create the Cash-In without openFinance and show its pixData',
      });
    const merchant = merchantFields(ledger.profile);
    // The sandbox's way to pay: a page or a BR Code on the gateway's own location.
    const hosted = port.issuesBrCode
      ? undefined
      : input.openFinanceRedirectUrl
        ? { openFinanceData: { paymentUrl: `${input.paymentUrlPrefix}${internalCode}` } }
        : {
            pixData: {
              copyAndPaste: buildDynamicBrCode({
                location: `${input.locationPrefix}${internalCode}`,
                amountCents: input.amountCents,
                ...merchant,
              }),
            },
          };
    const registered = await port.registerCharge({
      txid: transactionId,
      amountCents: input.amountCents,
      expiresAt,
      payer: input.payer,
      ...(input.recurrence && { recurrence: input.recurrence }),
    });
    await ledger.crashes.reach('cash-in.charge-registered');
    if (!registered.ok) {
      return failure({
        code: 'RULE_VIOLATION',
        detail: 'The settlement partner refused the charge; retry later',
      });
    }
    // A real partner's PSP issued the BR Code: it alone serves the payload a payer's bank reads.
    const issued = registered.value.brCode;
    const psp =
      port.issuesBrCode && issued
        ? pspBrCode(issued, { amountCents: input.amountCents, ...merchant })
        : undefined;
    if (port.issuesBrCode && psp === undefined && !input.recurrence) {
      log('error', 'the partner registered a charge without a usable BR Code', {
        transactionId,
        ispb: partnerIspb,
      });
      await port.removeCharge?.(transactionId); // unpayable anyway: nobody was given its code
      return failure({
        code: 'RULE_VIOLATION',
        detail: 'The settlement partner registered the charge without a BR Code; retry later',
      });
    }
    const payment = psp ? { pixData: { copyAndPaste: psp.copyAndPaste } } : hosted;
    const created: CashInCreated = {
      transactionId,
      internalCode,
      externalReference: reference,
      status: 'AWAITING_PAYMENT',
      amount: amountFromCents(input.amountCents),
      payer: { name: input.payer.name, document: input.payer.document },
      ...payment,
      requestedAt: formatBrt(now),
    };
    ledger.storage.transactionSync(() => {
      const inserted = insertCashIn(ledger.db).get({
        transactionId,
        internalCode,
        externalReference: reference,
        status: 'AWAITING_PAYMENT',
        amount: input.amountCents,
        payerName: input.payer.name,
        payerDocument: input.payer.document,
        partnerIspb,
        webhookUrl: input.webhookUrl ?? null,
        redirectUrl: input.openFinanceRedirectUrl ?? null,
        flow: input.openFinanceRedirectUrl ? 'OPEN_FINANCE' : 'PIX',
        pspLocation: psp?.location ?? null,
        requestedAt: now,
        expiresAt,
      }) as CashInRow;
      // Off the prepared insert: only a recurring charge pays for the extra write.
      const row = input.recurringCharge
        ? updateCashIn(ledger, inserted.seq, { recurrence: input.recurringCharge })
        : inserted;
      // The event and observation in one statement; their dispatch, flush and the expiry in one
      // (dispatch and flush shared with the Cash-Ins of the next moment: OUTBOX_COALESCE_MS).
      emitWithObservation(ledger, cashInEvent(row, 'CASHIN_REQUESTED', now), transactionId, {
        operation: 'CASH_IN',
        partnerIspb,
        event: 'CREATED',
        at: now,
      });
      ledger.scheduler.scheduleAll([
        ['dispatch-webhooks', 'all', now + OUTBOX_COALESCE_MS],
        ['flush-outbox', 'all', now + OUTBOX_COALESCE_MS],
        ['expire-cash-in', transactionId, expiresAt + LATE_SETTLEMENT_GRACE_MS],
      ]);
      along?.(transactionId);
      // The texts its BR Code or payment page share with the client's other answers, kept once (idempotency-codec.ts).
      const context = [
        input.locationPrefix,
        input.paymentUrlPrefix,
        merchant.merchantName,
        merchant.merchantCity,
      ].join('\n');
      remember(201, created, answerAbout('cash-in', row, context));
    });
    return success(201, created);
  } finally {
    creating.delete(reference);
  }
}

/**
 * Cancels an unpaid Cash-In. A real partner still holds its charge open (expiry needs nothing: the
 * PSP's own `calendario.expiracao` ends it at the same instant), so it is taken down first: a
 * charge the partner reports paid is not cancelled (the payment is a fact, on its way to being
 * recorded); a partner that cannot answer now is asked again by a task.
 */
export async function cancelCashIn(ledger: LedgerContext, id: string): Promise<OperationResult<CashInView>> {
  const row = findCashIn(ledger.db, id);
  if (!row) return cashInNotFound();
  const refusal = unpaidOnly(row.status, 'cancelled');
  if (refusal) return failure(refusal);
  const port = partnerPort(ledger.env, row.partnerIspb);
  const removed = port.removeCharge ? await port.removeCharge(row.transactionId) : undefined;
  if (removed && !removed.ok && removed.failureCode === CHARGE_PAID)
    return failure({
      code: 'RULE_VIOLATION',
      detail:
        'This Cash-In was paid at the partner; the payment is being recorded, so it cannot be cancelled',
    });
  if (removed && !removed.ok && !removed.retryable)
    log('error', 'the partner refused to remove a cancelled charge', {
      transactionId: row.transactionId,
      failureCode: removed.failureCode,
    });
  // Re-read: a payment may have been recorded while the partner was asked.
  const fresh = present(findCashIn(ledger.db, id), `Cash-In ${id}`);
  const late = unpaidOnly(fresh.status, 'cancelled');
  if (late) return failure(late);
  const now = Date.now();
  const cancelled = ledger.storage.transactionSync(() => {
    const updated = updateCashIn(ledger, fresh.seq, { status: 'CANCELLED', cancelledAt: now });
    emitCashIn(ledger, updated, 'CASHIN_CANCELLED', now);
    ledger.scheduler.cancel('expire-cash-in', fresh.transactionId);
    if (removed && !removed.ok && removed.retryable)
      ledger.scheduler.schedule('remove-charge', fresh.transactionId, now);
    return updated;
  });
  return success(200, cashInView(cancelled));
}

/**
 * Ends the payment window. `now: true` (sandbox) closes it at this instant; the task path runs
 * after the late-settlement grace. `expiredAt` stays the end of the window either way.
 */
export function expireCashIn(
  ledger: LedgerContext,
  id: string,
  immediately: boolean,
): OperationResult<CashInView> {
  const row = findCashIn(ledger.db, id);
  if (!row) return cashInNotFound();
  const refusal = unpaidOnly(row.status, 'expire');
  if (refusal) return failure(refusal);
  const now = Date.now();
  if (!immediately && now < row.expiresAt + LATE_SETTLEMENT_GRACE_MS) {
    ledger.scheduler.schedule('expire-cash-in', row.transactionId, row.expiresAt + LATE_SETTLEMENT_GRACE_MS);
    return failure({ code: 'RULE_VIOLATION', detail: 'Still inside the late-settlement grace' });
  }
  const expired = ledger.storage.transactionSync(() => {
    const updated = updateCashIn(ledger, row.seq, {
      status: 'EXPIRED',
      ...(immediately && { expiresAt: Math.min(row.expiresAt, now) }),
    });
    emitCashIn(ledger, updated, 'CASHIN_EXPIRED', now);
    observe(ledger, row.transactionId, {
      operation: 'CASH_IN',
      partnerIspb: row.partnerIspb,
      event: 'EXPIRED',
      at: now,
    });
    ledger.scheduler.cancel('expire-cash-in', row.transactionId);
    return updated;
  });
  return success(200, cashInView(expired));
}
