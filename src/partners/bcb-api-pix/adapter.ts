/**
 * The settlement-partner port over a PSP that implements the central bank's API Pix standard.
 * Charges are `PUT /cob/{txid}` with our TxId; refunds are `PUT /pix/{e2eid}/devolucao/{id}` with
 * the devolution's end-to-end id as `id`. Payments (Cash-Out) are not part of the standard: a
 * partner declares a payout API for them (src/partners/efi-pix-send), and without one
 * `sendPayment` refuses.
 * The read calls (`chargeStatus`, `receivedPix`, `receivedPixBetween`, `devolutionStatus`) are what
 * inbound callbacks and the reconciliation sweep re-read before any money moves.
 */

import { documentKind, isValidDocument, normalizeDocument } from '../../domain/documents';
import { CALLS_IN_FLIGHT, sendEach, statusEach } from '../concurrent-calls';
import type { DeclaredPayout } from '../config';
import { EfiPixSendPayout } from '../efi-pix-send/adapter';
import { EfiInfractions } from '../efi-pix-send/infractions';
import { mapEfiRefusal } from '../efi-pix-send/refusal-mapping';
import {
  CHARGE_PAID,
  type ChargeRegistration,
  type DevolutionRequest,
  type DisputeDefense,
  type PartnerOutcome,
  type PaymentRequest,
  type RegisteredCharge,
  type ReportedInfraction,
  type SettlementPartnerPort,
  type StatusOrUnread,
  type TransferStatus,
} from '../port';
import { type BcbAnswer, BcbApiPixClient, type BcbClientConfig } from './client';
import { centsToDecimal, decimalToCents } from './money';
import { BcbRecurrences, type ReceivingAccountDeclaration } from './recurrence';

export interface BcbPartnerConfig extends BcbClientConfig {
  ispb: string;
  /** The partner's Pix key that receives our charges. */
  pixKey: string;
  payout?: DeclaredPayout;
  /** The PSP reports each received Pix's payer as Efí does (`gnExtras.pagador`); see `payerOf`. */
  reportsPayer?: boolean;
  /** Pix Automático offered: the account recurring charges credit (`CobRSolicitada.recebedor`). */
  pixAutomatico?: ReceivingAccountDeclaration;
}

export interface ReceivedPix {
  endToEndId: string;
  txid: string | undefined;
  amountCents: number;
  paidAt: number;
  devolutions: ReceivedDevolution[];
  /** The paying account holder, where the partner reports it (Efí's payer report). */
  payer?: { name?: string; document?: string };
}

export interface ReceivedDevolution {
  /** Its id at the PSP: ours (the refund's end-to-end id) when we asked for it. */
  id: string;
  /** pacs.004 RtrId. */
  endToEndId: string;
  amountCents: number;
  /** EM_PROCESSAMENTO, DEVOLVIDO or NAO_REALIZADO. */
  status: string;
  /** ORIGINAL, RETIRADA, MED_OPERACIONAL, MED_FRAUDE, … (absent means ORIGINAL). */
  nature: string;
}

/** Efí's `GET /v2/gn/config` `pix` (what this adapter reads of it; the rest is sent back as read). */
interface EfiPixConfig {
  receberSemChave?: boolean;
  chaves?: Record<
    string,
    {
      recebimento?: {
        txidObrigatorio?: boolean;
        qrCodeEstatico?: { recusarTodos: boolean };
        webhook?: { notificacao?: { tarifa?: boolean; pagador?: boolean } };
      };
    }
  >;
}

/** One page of received Pix and how many pages the window has. */
export interface ReceivedPixPage {
  pix: ReceivedPix[];
  pages: number;
}

/** Items per page asked of `GET /pix` (the standard's default is 100). */
const PAGE_SIZE = 100;

function outcome<T>(answer: BcbAnswer, value: T): PartnerOutcome<T> {
  return answer.ok
    ? { ok: true, value }
    : { ok: false, failureCode: answer.failureCode, retryable: answer.retryable };
}

/**
 * Efí's payer report, once enabled for the receiving key (`PUT /v2/gn/config`, `webhook.notificacao.pagador`):
 * `gnExtras.pagador` `{nome, cpf | cnpj, codigoBanco}` on the received Pix (dev.efipay.com.br, API Pix:
 * "Webhooks", "Endpoints exclusivos Efí"). The bank comes from the endToEndId instead, which every
 * PSP carries; a document that is not one (masked, malformed) is no document.
 */
export function payerOf(pix: Record<string, unknown>): ReceivedPix['payer'] {
  const extras = pix.gnExtras as { pagador?: Record<string, unknown> } | null | undefined;
  const p = extras?.pagador;
  if (!p || typeof p !== 'object') return undefined;
  const raw = typeof p.cpf === 'string' ? p.cpf : typeof p.cnpj === 'string' ? p.cnpj : undefined;
  const document =
    raw !== undefined && isValidDocument(normalizeDocument(raw)) ? normalizeDocument(raw) : undefined;
  return {
    ...(typeof p.nome === 'string' && p.nome !== '' && { name: p.nome }),
    ...(document !== undefined && { document }),
  };
}

/**
 * A received Pix as the standard's `Pix` schema carries it, or undefined when malformed; with its
 * payer when the partner reports payers (`reportsPayer`), never otherwise.
 */
export function parsePix(body: unknown, reportsPayer = false): ReceivedPix | undefined {
  const p = body as Record<string, unknown> | null;
  const amountCents = decimalToCents(p?.valor);
  if (!p || typeof p.endToEndId !== 'string' || amountCents === undefined || typeof p.horario !== 'string')
    return undefined;
  const devolutions = Array.isArray(p.devolucoes) ? p.devolucoes : [];
  return {
    endToEndId: p.endToEndId,
    txid: typeof p.txid === 'string' ? p.txid : undefined,
    amountCents,
    paidAt: Date.parse(p.horario),
    devolutions: devolutions.map((d: Record<string, unknown>) => ({
      id: String(d.id),
      endToEndId: String(d.rtrId),
      amountCents: decimalToCents(d.valor) ?? 0,
      status: String(d.status),
      nature: typeof d.natureza === 'string' ? d.natureza : 'ORIGINAL',
    })),
    ...(reportsPayer && { payer: payerOf(p) ?? {} }),
  };
}

/**
 * API Pix `devedor`: `cpf` or `cnpj` with `nome`. The document's CPF pattern is written as a
 * JavaScript regex literal (`/^\d{11}$/`, slashes included) that no string matches when read as a
 * JSON Schema pattern; its intent, and every PSP, is 11 digits, which is what a CPF here is.
 * 2.9.0 reads a CNPJ as `^[0-9A-Z]{14}$`, the alphanumeric CNPJ's canonical (upper-case) form.
 */
function devedorOf(payer: { name: string; document: string }) {
  const id = documentKind(payer.document) === 'CPF' ? { cpf: payer.document } : { cnpj: payer.document };
  return { ...id, nome: payer.name.slice(0, 200) };
}

export class BcbApiPixPartner implements SettlementPartnerPort {
  readonly ispb: string;
  readonly issuesBrCode = true;
  readonly reportsPayer: boolean;
  /** Enabled at the PSP by this adapter (per isolate; enabling again changes nothing). */
  private payerReportOn = false;
  private readonly client: BcbApiPixClient;
  private readonly payout: EfiPixSendPayout | undefined;
  private readonly med: EfiInfractions | undefined;
  readonly recurrences: BcbRecurrences | undefined;

  constructor(private readonly config: BcbPartnerConfig) {
    this.ispb = config.ispb;
    this.reportsPayer = config.reportsPayer === true;
    this.client = new BcbApiPixClient(config);
    this.payout =
      config.payout && new EfiPixSendPayout(this.client, config.payout.baseUrl, config.payout.payerKey);
    // Efí's infraction API lives with its Pix Send, on the payout host.
    this.med = config.payout && new EfiInfractions(this.client.sibling(config.payout.baseUrl, mapEfiRefusal));
    this.recurrences = config.pixAutomatico && new BcbRecurrences(this.client, config.pixAutomatico);
  }

  /**
   * `PUT /cob/{txid}`. The answer's `pixCopiaECola` and `location` are the charge's BR Code: the
   * PSP serves the payload at that location, signed with its own certificate, and only there can a
   * payer's bank read it. The payer, when known, goes as `devedor` (shown to the payer).
   */
  async registerCharge(charge: ChargeRegistration): Promise<PartnerOutcome<RegisteredCharge>> {
    // No charge before its payer can be reported: a DECLARED_PAYER client would refund its own payer.
    if (this.reportsPayer && !this.payerReportOn) {
      const enabled = await this.enablePayerReport();
      if (!enabled.ok) return enabled;
    }
    if (charge.recurrence) {
      // A Pix Automático cycle: debited by the payer's bank under the authorization, no BR Code.
      if (!this.recurrences) return { ok: false, failureCode: 'PROCESSING_ERROR', retryable: false };
      const { idRec, dueDate } = charge.recurrence;
      const cobr = await this.recurrences.registerRecurringCharge(
        charge.txid,
        idRec,
        charge.amountCents,
        dueDate,
      );
      return cobr.ok ? { ok: true, value: { registeredAt: Date.now() } } : cobr;
    }
    const expiracao = Math.max(1, Math.ceil((charge.expiresAt - Date.now()) / 1000));
    const answer = await this.client.call('PUT', `/cob/${encodeURIComponent(charge.txid)}`, {
      calendario: { expiracao },
      ...(charge.payer && { devedor: devedorOf(charge.payer) }),
      valor: { original: centsToDecimal(charge.amountCents) },
      chave: this.config.pixKey,
    });
    const cob = (answer.ok ? answer.body : {}) as { pixCopiaECola?: unknown; location?: unknown };
    const brCode =
      typeof cob.pixCopiaECola === 'string' || typeof cob.location === 'string'
        ? {
            copyAndPaste: typeof cob.pixCopiaECola === 'string' ? cob.pixCopiaECola : '',
            location: typeof cob.location === 'string' ? cob.location : '',
          }
        : undefined;
    return outcome(answer, { registeredAt: Date.now(), ...(brCode && { brCode }) });
  }

  /** `PATCH /cob/{txid}` status REMOVIDA_PELO_USUARIO_RECEBEDOR: the PSP refuses payments of it from now on. */
  async removeCharge(txid: string): Promise<PartnerOutcome<null>> {
    const answer = await this.client.call('PATCH', `/cob/${encodeURIComponent(txid)}`, {
      status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
    });
    if (answer.ok || answer.retryable) return outcome(answer, null);
    // Refused: say why from the charge itself. Paid is a fact the caller must not cancel over;
    // already gone (removed, or never registered) is what was wanted.
    const charge = await this.chargeStatus(txid);
    if (charge.ok && charge.value.status === 'CONCLUIDA')
      return { ok: false, failureCode: CHARGE_PAID, retryable: false };
    const gone = charge.ok
      ? charge.value.status.startsWith('REMOVIDA')
      : charge.failureCode === 'PROCESSING_ERROR'; // NaoEncontrado: never registered there
    // No `cob` under this txid: a Pix Automático cycle is a `cobr` instead.
    if (gone && !charge.ok && this.recurrences) return this.recurrences.removeRecurringCharge(txid);
    if (gone) return { ok: true, value: null };
    return outcome(answer, null);
  }

  /** The charge as the PSP has it: status ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, … */
  async chargeStatus(txid: string): Promise<PartnerOutcome<{ status: string; pix: ReceivedPix[] }>> {
    const answer = await this.client.call('GET', `/cob/${encodeURIComponent(txid)}`);
    const body = answer.ok ? (answer.body as { status?: unknown; pix?: unknown[] }) : {};
    const pix = (body.pix ?? [])
      .map((p) => parsePix(p, this.reportsPayer))
      .filter((p): p is ReceivedPix => p !== undefined);
    return outcome(answer, { status: String(body.status), pix });
  }

  async receivedPix(endToEndId: string): Promise<PartnerOutcome<ReceivedPix | undefined>> {
    const answer = await this.client.call('GET', `/pix/${encodeURIComponent(endToEndId)}`);
    return outcome(answer, answer.ok ? parsePix(answer.body, this.reportsPayer) : undefined);
  }

  /** Page `page` (from 0) of the Pix received in [from, to): the reconciliation sweep's source. */
  async receivedPixPage(
    from: Date,
    to: Date,
    page: number,
    size = PAGE_SIZE,
  ): Promise<PartnerOutcome<ReceivedPixPage>> {
    const query = new URLSearchParams({
      inicio: from.toISOString(),
      fim: to.toISOString(),
      'paginacao.paginaAtual': String(page),
      'paginacao.itensPorPagina': String(size),
    });
    const answer = await this.client.call('GET', `/pix?${query}`);
    const body = (answer.ok ? answer.body : {}) as {
      pix?: unknown[];
      parametros?: { paginacao?: { quantidadeDePaginas?: unknown } };
    };
    const pages = body.parametros?.paginacao?.quantidadeDePaginas;
    return outcome(answer, {
      pix: (body.pix ?? [])
        .map((p) => parsePix(p, this.reportsPayer))
        .filter((p): p is ReceivedPix => p !== undefined),
      pages: typeof pages === 'number' ? pages : 1,
    });
  }

  async sendDevolution(request: DevolutionRequest): Promise<PartnerOutcome<{ acceptedAt: number }>> {
    const path = `/pix/${encodeURIComponent(request.originalEndToEndId)}/devolucao/${encodeURIComponent(request.endToEndId)}`;
    const answer = await this.client.call('PUT', path, { valor: centsToDecimal(request.amountCents) });
    return outcome(answer, { acceptedAt: Date.now() });
  }

  /** A devolution's state: EM_PROCESSAMENTO (pending), DEVOLVIDO (settled), NAO_REALIZADO (failed). */
  async devolutionStatus(originalEndToEndId: string, id: string): Promise<TransferStatus> {
    const path = `/pix/${encodeURIComponent(originalEndToEndId)}/devolucao/${encodeURIComponent(id)}`;
    const answer = await this.client.call('GET', path);
    if (!answer.ok) return answer.status === 404 ? { state: 'UNKNOWN' } : { state: 'PENDING' };
    const d = answer.body as { status?: string; rtrId?: unknown; horario?: { liquidacao?: string } };
    if (d.status === 'DEVOLVIDO')
      return {
        state: 'SETTLED',
        // The return's end-to-end id at the network (pacs.004 RtrId), not the id we asked under.
        endToEndId: typeof d.rtrId === 'string' && d.rtrId !== '' ? d.rtrId : id,
        settledAt: Date.parse(d.horario?.liquidacao ?? ''),
      };
    if (d.status === 'NAO_REALIZADO') return { state: 'FAILED', failureCode: 'PAYEE_BANK_REJECTED' };
    return { state: 'PENDING' };
  }

  /**
   * `PUT /webhook/{chave}`; a partner that reports payers then has the report enabled for the key
   * (`enablePayerReport`).
   */
  async registerWebhook(webhookUrl: string): Promise<PartnerOutcome<null>> {
    const answer = await this.client.call('PUT', `/webhook/${encodeURIComponent(this.config.pixKey)}`, {
      webhookUrl,
    });
    if (!answer.ok) return outcome(answer, null);
    // Pix Automático's callbacks go to the same base: `{webhookUrl}/rec` and `{webhookUrl}/cobr`.
    const recurring = this.recurrences ? await this.recurrences.registerWebhooks(webhookUrl) : undefined;
    if (recurring && !recurring.ok) return recurring;
    return this.reportsPayer ? this.enablePayerReport() : outcome(answer, null);
  }

  /**
   * Efí's account configuration (`GET`/`PUT /v2/gn/config` on the API Pix host, scopes
   * gn.settings.read/write): the payer's name, document and bank with every Pix our key receives
   * (`recebimento.webhook.notificacao.pagador`). The PUT replaces the whole configuration and its
   * schema requires every receiving setting, so the current one is read and only that flag changed.
   */
  async enablePayerReport(): Promise<PartnerOutcome<null>> {
    const read = await this.client.call('GET', '/gn/config');
    // None yet (a new account): written from the defaults below.
    if (!read.ok && read.status !== 404) return outcome(read, null);
    const pix = read.ok ? ((read.body as { pix?: EfiPixConfig } | null)?.pix ?? {}) : {};
    const key = pix.chaves?.[this.config.pixKey] ?? {};
    const receiving = key.recebimento ?? {};
    const answer = await this.client.call('PUT', '/gn/config', {
      pix: {
        ...pix,
        receberSemChave: pix.receberSemChave ?? false,
        chaves: {
          ...pix.chaves,
          [this.config.pixKey]: {
            ...key,
            recebimento: {
              ...receiving,
              txidObrigatorio: receiving.txidObrigatorio ?? false,
              qrCodeEstatico: receiving.qrCodeEstatico ?? { recusarTodos: false },
              webhook: {
                ...receiving.webhook,
                notificacao: { tarifa: receiving.webhook?.notificacao?.tarifa ?? false, pagador: true },
              },
            },
          },
        },
      },
    });
    if (answer.ok) this.payerReportOn = true;
    return outcome(answer, null);
  }

  /** The payout API's record of Pix sent (reconciliation), or undefined without a payout API. */
  get payouts(): EfiPixSendPayout | undefined {
    return this.payout;
  }

  async sendPayment(request: PaymentRequest): Promise<PartnerOutcome<{ acceptedAt: number }>> {
    // API Pix has no payment operation: without a payout API this partner cannot send.
    if (!this.payout) return { ok: false, failureCode: 'PROVIDER_UNAVAILABLE', retryable: false };
    return this.payout.sendPayment(request);
  }

  /**
   * A Cash-Out's state at the payout API. API Pix addresses a devolution under its original payment,
   * which the port's signature does not carry, so callers with a devolution use `devolutionStatus`.
   */
  async transferStatus(idempotencyId: string): Promise<TransferStatus> {
    return this.payout ? this.payout.transferStatus(idempotencyId) : { state: 'UNKNOWN' };
  }

  callRounds(size: number): number {
    return Math.ceil(size / CALLS_IN_FLIGHT);
  }

  /** The payout API takes one payment per request: many are sent in concurrent rounds (concurrent-calls.ts). */
  sendPayments(requests: PaymentRequest[]): Promise<PartnerOutcome<{ acceptedAt: number }>[]> {
    return sendEach((r) => this.sendPayment(r), requests);
  }

  transferStatuses(idempotencyIds: string[]): Promise<StatusOrUnread[]> {
    return statusEach((id) => this.transferStatus(id), idempotencyIds);
  }

  /** MED infractions: Efí's own API (efi-pix-send/infractions.ts); plain API Pix reports only the return. */
  async infractions(since: number): Promise<PartnerOutcome<ReportedInfraction[]>> {
    return this.med ? this.med.list(since) : { ok: true, value: [] };
  }

  async sendDisputeDefense(defense: DisputeDefense): Promise<PartnerOutcome<null>> {
    return this.med
      ? this.med.defend(defense)
      : { ok: false, failureCode: 'DEFENSE_NOT_OFFERED', retryable: false };
  }
}
