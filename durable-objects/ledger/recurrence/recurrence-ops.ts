/**
 * Pix Automático recurrences (docs/contract.md, Pix Automático) inside the client's Durable Object:
 * creation with its authorization journey, the payer's answers, cancellation and expiry. Each
 * transition is one storage transaction with its outbox event; the rules are src/domain/recurrence.ts.
 */

import { clientOfPartnerRecurrence, recordPartnerRecurrence } from '../../../src/db/partner-recurrences';
import { buildRecurrenceBrCode } from '../../../src/domain/brcode';
import { newRecurrenceId, randomCode } from '../../../src/domain/ids';
import { merchantFields } from '../../../src/domain/merchant';
import { amountFromCents, type Cents } from '../../../src/domain/money';
import { present } from '../../../src/domain/present';
import {
  cycleDueDate,
  type Frequency,
  PERIODICIDADE,
  POLITICA_RETENTATIVA,
  type RecurrenceTerms,
  type RetryPolicy,
  recurrenceRecheckAt,
  termsRefusal,
} from '../../../src/domain/recurrence';
import { recurrencePayload } from '../../../src/domain/recurrence-payload';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { brtDate, formatBrt } from '../../../src/domain/time';
import { isSimulatedPartner, offersPixAutomatico } from '../../../src/partners/config';
import { partnerPort } from '../../../src/partners/port-registry';
import type { Remember } from '../ledger/idempotency';
import { firstTransactionalIspb } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';
import { emitWebhook } from '../webhooks/events';
import {
  findRecurrence,
  insertRecurrence,
  latestRecurrences,
  type RecurrenceRow,
  recurrenceByLocationCode,
  referenceTaken,
  updateRecurrence,
} from './recurrence-store';

const DAY_MS = 86_400_000;

export interface CreateRecurrenceInput {
  externalReference: string;
  frequency: Frequency;
  startDate: string;
  endDate?: string;
  amountCents?: number;
  minimumAmountCents?: number;
  retryPolicy: RetryPolicy;
  contract: string;
  description?: string;
  payer: { name: string; document: string; bankData?: { ispb: string; branch: string; account: string } };
  webhookUrl?: string;
  authorizationExpirationInDays: number;
  /** `<host>/pix/rec/<client location key>`: the QR journey's location, the recurrence's code appended. */
  locationPrefix: string;
}

export type CancelledBy = 'CLIENT' | 'PAYER' | 'PAYER_BANK';

const money = (cents: number | null) => (cents === null ? undefined : amountFromCents(cents as Cents));

export function termsOf(row: RecurrenceRow): RecurrenceTerms {
  return {
    frequency: row.frequency,
    startDate: row.startDate,
    endDate: row.endDate,
    fixedAmount: row.amount,
    minimumAmount: row.minimumAmount,
    payerMaximumAmount: row.payerMaximumAmount,
    retryPolicy: row.retryPolicy,
  };
}

/** The first due date on or after today, while the recurrence is approved and not past its end. */
function nextDueDate(row: RecurrenceRow, now: number): string | undefined {
  if (row.status !== 'APPROVED') return undefined;
  const today = brtDate(now);
  for (let n = 0; n < 2000; n++) {
    const due = cycleDueDate(row.startDate, row.frequency, n);
    if (row.endDate !== null && due > row.endDate) return undefined;
    if (due >= today) return due;
  }
  return undefined;
}

/** GET /recurrences/{id}: the recurrence as the client sees it (OpenAPI Recurrence). */
export function recurrenceView(row: RecurrenceRow, now = Date.now()) {
  const next = nextDueDate(row, now);
  return {
    recurrenceId: row.recurrenceId,
    externalReference: row.externalReference,
    status: row.status,
    frequency: row.frequency,
    startDate: row.startDate,
    ...(row.endDate !== null && { endDate: row.endDate }),
    ...(row.amount !== null && { amount: money(row.amount) }),
    ...(row.minimumAmount !== null && { minimumAmount: money(row.minimumAmount) }),
    ...(row.payerMaximumAmount !== null && { payerMaximumAmount: money(row.payerMaximumAmount) }),
    retryPolicy: row.retryPolicy,
    contract: row.contract,
    ...(row.description !== null && { description: row.description }),
    payer: {
      name: row.payerName,
      document: row.payerDocument,
      ...(row.payerBank !== null && { bankData: row.payerBank }),
    },
    authorization:
      row.journey === 'QR'
        ? {
            journey: 'QR' as const,
            ...(row.status === 'WAITING_AUTHORIZATION' && { copyAndPaste: row.copyAndPaste ?? '' }),
          }
        : { journey: 'PUSH' as const },
    ...(next !== undefined && { nextDueDate: next }),
    createdAt: formatBrt(row.createdAt),
    authorizationExpiresAt: formatBrt(row.authorizationExpiresAt),
    ...(row.approvedAt !== null && { approvedAt: formatBrt(row.approvedAt) }),
    ...(row.endedAt !== null && row.status === 'REJECTED' && { rejectedAt: formatBrt(row.endedAt) }),
    ...(row.endedAt !== null && row.status === 'EXPIRED' && { expiredAt: formatBrt(row.endedAt) }),
    ...(row.endedAt !== null && row.status === 'CANCELLED' && { cancelledAt: formatBrt(row.endedAt) }),
    ...(row.cancelledBy !== null && { cancelledBy: row.cancelledBy }),
  };
}

export type RecurrenceView = ReturnType<typeof recurrenceView>;

export const recurrenceNotFound = () =>
  failure({ code: 'RECURRENCE_NOT_FOUND', detail: 'No recurrence matches this id' });

function emitRecurrence(ledger: LedgerContext, row: RecurrenceRow, eventType: string, at: number): void {
  emitWebhook(ledger, {
    aggregateId: `recurrence:${row.recurrenceId}`,
    eventType,
    data: recurrenceView(row, at),
    webhookUrl: row.webhookUrl,
    at,
  });
}

/** What the payer authorizes: a simulated partner's BR Code, or what a real partner answered. */
type Issued = { recurrenceId: string; copyAndPaste: string | null };

/**
 * A real partner's recurrence (API Pix `POST /rec`, with `/locrec` or `/solicrec` for its journey:
 * src/partners/bcb-api-pix/recurrence.ts). Its `idRec` becomes the recurrence's id, recorded in D1
 * first so the partner's `rec` callbacks find this client.
 */
async function issueAtPartner(
  ledger: LedgerContext,
  input: CreateRecurrenceInput,
  partnerIspb: string,
  expiresAt: number,
): Promise<OperationResult<Issued>> {
  const recurrences = partnerPort(ledger.env, partnerIspb).recurrences;
  const refused = (detail: string) => failure({ code: 'RULE_VIOLATION', detail });
  if (!recurrences)
    return refused(
      `The settlement partner ${partnerIspb} does not offer Pix Automático; nothing was sent to it`,
    );
  const answer = await recurrences.createRecurrence({
    periodicidade: PERIODICIDADE[input.frequency],
    startDate: input.startDate,
    endDate: input.endDate ?? null,
    fixedAmountCents: input.amountCents ?? null,
    minimumAmountCents: input.minimumAmountCents ?? null,
    politicaRetentativa: POLITICA_RETENTATIVA[input.retryPolicy],
    contract: input.contract,
    description: input.description ?? null,
    payer: { name: input.payer.name, document: input.payer.document },
    payerBank: input.payer.bankData ?? null,
    authorizationExpiresAt: expiresAt,
    claimed: async (idRec) => (await clientOfPartnerRecurrence(ledger.env, partnerIspb, idRec)) !== undefined,
  });
  if (!answer.ok) return refused('The settlement partner refused the recurrence; retry later');
  const push = input.payer.bankData !== undefined;
  if (!push && answer.value.copyAndPaste === undefined)
    return refused('The settlement partner created the recurrence without a BR Code; retry later');
  await recordPartnerRecurrence(ledger.env, partnerIspb, answer.value.idRec, ledger.profile.clientId);
  return success(200, {
    recurrenceId: answer.value.idRec,
    copyAndPaste: push ? null : (answer.value.copyAndPaste as string),
  });
}

export async function createRecurrence(
  ledger: LedgerContext,
  input: CreateRecurrenceInput,
  remember: Remember,
  /** externalReferences being created now: a real partner is awaited between check and insert. */
  creating: Set<string>,
): Promise<OperationResult<RecurrenceView>> {
  const now = Date.now();
  const today = brtDate(now);
  if (creating.has(input.externalReference) || referenceTaken(ledger.db, input.externalReference))
    return failure({
      code: 'DUPLICATED_EXTERNAL_REFERENCE',
      detail: `externalReference '${input.externalReference}' was already used for a recurrence`,
    });
  const terms: RecurrenceTerms = {
    frequency: input.frequency,
    startDate: input.startDate,
    endDate: input.endDate ?? null,
    fixedAmount: input.amountCents ?? null,
    minimumAmount: input.minimumAmountCents ?? null,
    payerMaximumAmount: null,
    retryPolicy: input.retryPolicy,
  };
  const refusal = termsRefusal(terms, today);
  if (refusal) return failure(refusal);
  const partnerIspb = firstTransactionalIspb(ledger.db);
  if (partnerIspb === undefined) throw new Error('client has no TRANSACTIONAL account');
  // Nothing reaches a partner that cannot carry a recurrence (its declaration's `pixAutomatico`).
  if (!offersPixAutomatico(ledger.env, partnerIspb))
    return failure({
      code: 'RULE_VIOLATION',
      detail: `The settlement partner ${partnerIspb} does not offer Pix Automático; nothing was sent to it`,
    });
  const push = input.payer.bankData !== undefined;
  const expiresAt = now + input.authorizationExpirationInDays * DAY_MS;
  let issued: Issued;
  // The sandbox's QR names the gateway's own location, found again by its code (GET /pix/rec).
  let locationCode: string | null = null;
  if (isSimulatedPartner(ledger.env, partnerIspb)) {
    if (!push)
      do locationCode = randomCode();
      while (recurrenceByLocationCode(ledger.db, locationCode) !== undefined);
    issued = {
      recurrenceId: newRecurrenceId(input.retryPolicy !== 'NONE', partnerIspb, today),
      copyAndPaste: push
        ? null
        : buildRecurrenceBrCode({
            location: `${input.locationPrefix}${locationCode}`,
            ...merchantFields(ledger.profile),
          }),
    };
  } else {
    creating.add(input.externalReference);
    try {
      const atPartner = await issueAtPartner(ledger, input, partnerIspb, expiresAt);
      if (!atPartner.ok) return atPartner;
      issued = atPartner.body;
    } finally {
      creating.delete(input.externalReference);
    }
  }
  const { recurrenceId, copyAndPaste } = issued;
  const view = ledger.storage.transactionSync(() => {
    const row = insertRecurrence(ledger.db, {
      recurrenceId,
      externalReference: input.externalReference,
      status: 'WAITING_AUTHORIZATION',
      frequency: input.frequency,
      startDate: input.startDate,
      endDate: input.endDate ?? null,
      amount: input.amountCents ?? null,
      minimumAmount: input.minimumAmountCents ?? null,
      payerMaximumAmount: null,
      retryPolicy: input.retryPolicy,
      contract: input.contract,
      description: input.description ?? null,
      payerName: input.payer.name,
      payerDocument: input.payer.document,
      payerBank: input.payer.bankData ?? null,
      journey: push ? 'PUSH' : 'QR',
      copyAndPaste,
      locationCode,
      partnerIspb,
      webhookUrl: input.webhookUrl ?? null,
      createdAt: now,
      authorizationExpiresAt: expiresAt,
    });
    ledger.scheduler.schedule('expire-recurrence', recurrenceId, expiresAt);
    // A real partner's answer is read again too, so it never waits on a `rec` callback.
    if (!isSimulatedPartner(ledger.env, partnerIspb))
      ledger.scheduler.schedule('recheck-recurrence', recurrenceId, recurrenceRecheckAt(now, expiresAt, now));
    const created = recurrenceView(row, now);
    remember(201, created);
    return created;
  });
  return success(201, view);
}

export function getRecurrence(ledger: LedgerContext, id: string): RecurrenceView | null {
  const row = findRecurrence(ledger.db, id);
  return row ? recurrenceView(row) : null;
}

export function listRecurrences(ledger: LedgerContext, limit: number, before?: number) {
  const rows = latestRecurrences(ledger.db, limit + 1, before);
  const page = rows.slice(0, limit);
  const now = Date.now();
  return {
    items: page.map((r) => recurrenceView(r, now)),
    ...(rows.length > limit && {
      nextBefore: present(page.at(-1), 'the last recurrence of a full page').seq,
    }),
  };
}

type Transition =
  | { to: 'APPROVED'; payerMaximumAmountCents?: number }
  | { to: 'REJECTED' }
  | { to: 'EXPIRED' }
  | { to: 'CANCELLED'; by: CancelledBy };

const EVENT = {
  APPROVED: 'RECURRENCE_APPROVED',
  REJECTED: 'RECURRENCE_REJECTED',
  EXPIRED: 'RECURRENCE_EXPIRED',
  CANCELLED: 'RECURRENCE_CANCELLED',
} as const;

/** Only a waiting recurrence is answered or expires; an approved one may still be cancelled. */
function transitionRefusal(row: RecurrenceRow, t: Transition): string | undefined {
  if (row.status === 'WAITING_AUTHORIZATION') return undefined;
  if (t.to === 'CANCELLED' && row.status === 'APPROVED') return undefined;
  return t.to === 'CANCELLED'
    ? `Only WAITING_AUTHORIZATION or APPROVED can be cancelled; this recurrence is ${row.status}`
    : `Only WAITING_AUTHORIZATION can become ${t.to}; this recurrence is ${row.status}`;
}

/** A move of the recurrence `id`; `sandbox`: the payer's bank's side, on a simulated partner only. */
export function moveRecurrence(
  ledger: LedgerContext,
  id: string,
  t: Transition,
  sandbox: boolean,
): OperationResult<RecurrenceView> {
  const row = findRecurrence(ledger.db, id);
  if (!row || (sandbox && !isSimulatedPartner(ledger.env, row.partnerIspb))) return recurrenceNotFound();
  const refused = transitionRefusal(row, t);
  if (refused) return failure({ code: 'RULE_VIOLATION', detail: refused });
  if (t.to === 'APPROVED' && t.payerMaximumAmountCents !== undefined) {
    if (row.amount !== null)
      return failure({
        code: 'RULE_VIOLATION',
        detail: 'payerMaximumAmount: a fixed-amount recurrence has no maximum',
      });
    if (row.minimumAmount !== null && t.payerMaximumAmountCents < row.minimumAmount)
      return failure({
        code: 'RULE_VIOLATION',
        detail: `payerMaximumAmount: below the recurrence's minimum of ${row.minimumAmount} centavos`,
      });
  }
  const now = Date.now();
  const moved = ledger.storage.transactionSync(() => {
    const updated = updateRecurrence(ledger.db, row.seq, {
      status: t.to,
      ...(t.to === 'APPROVED'
        ? { approvedAt: now, payerMaximumAmount: t.payerMaximumAmountCents ?? null }
        : { endedAt: now }),
      ...(t.to === 'CANCELLED' && { cancelledBy: t.by }),
    });
    ledger.scheduler.cancel('expire-recurrence', row.recurrenceId);
    emitRecurrence(ledger, updated, EVENT[t.to], now);
    return recurrenceView(updated, now);
  });
  return success(200, moved);
}

/** The `expire-recurrence` task: a recurrence still waiting at its deadline ends EXPIRED. */
export function expireRecurrence(ledger: LedgerContext, recurrenceId: string): void {
  const row = findRecurrence(ledger.db, recurrenceId);
  if (row?.status !== 'WAITING_AUTHORIZATION') return;
  moveRecurrence(ledger, recurrenceId, { to: 'EXPIRED' }, false);
}

/**
 * What the QR journey's location serves (GET /pix/rec/{locator}): the recurrence's payload, found by
 * its location code only; a simulated partner's (a real partner's PSP hosts its own location).
 */
export function recurrenceLocation(ledger: LedgerContext, code: string) {
  const row = recurrenceByLocationCode(ledger.db, code);
  if (!row || !isSimulatedPartner(ledger.env, row.partnerIspb)) return null;
  return recurrencePayload({
    recurrenceId: row.recurrenceId,
    status: row.status,
    frequency: row.frequency,
    startDate: row.startDate,
    endDate: row.endDate,
    amountCents: row.amount,
    minimumAmountCents: row.minimumAmount,
    retryPolicy: row.retryPolicy,
    contract: row.contract,
    description: row.description,
    payer: { name: row.payerName, document: row.payerDocument },
    receiver: { name: ledger.profile.name, ispb: row.partnerIspb },
    createdAtMs: row.createdAt,
    approvedAtMs: row.approvedAt,
    endedAtMs: row.endedAt,
  });
}
