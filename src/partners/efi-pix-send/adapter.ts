/**
 * Cash-Outs through Efí's Pix Send (a bank payout API: payments are not part of API Pix).
 * `PUT /v3/gn/pix/{idEnvio}` sends, `GET /v2/gn/pix/enviados/id-envio/{idEnvio}` reads where it
 * stands. `idEnvio` must match `^[a-zA-Z0-9]{1,35}$`, so it is the Cash-Out's UUID without its
 * hyphens: still unique, and the same on every retry, so a repeated send cannot pay twice (Efí
 * answers the repeat 409 `id_envio_duplicado`, which we read as "already accepted" and then ask).
 * OAuth2 and mTLS are the partner's own: the API Pix client's token and certificate, shared.
 */
import type { BcbAnswer, BcbApiPixClient } from '../bcb-api-pix/client';
import { centsToDecimal, decimalToCents } from '../bcb-api-pix/money';
import type { PartnerOutcome, PaymentRequest, TransferStatus } from '../port';
import { DUPLICATE_ID, mapEfiRefusal, NOT_MADE } from './refusal-mapping';

export const idEnvioOf = (transactionId: string) => transactionId.replace(/-/g, '');

/** Efí's account types are `cacc` and `svgs` only: a payment account cannot be paid through it. */
const ACCOUNT_TYPES: Readonly<Record<string, 'cacc' | 'svgs'>> = { CACC: 'cacc', SVGS: 'svgs' };

/** The request body (PixSendBodySchema), or the failure code when Efí cannot express the payee. */
export function pixSendBody(request: PaymentRequest, payerKey: string): object | { refused: string } {
  const { payee } = request;
  const holder = payee.document.length === 11 ? { cpf: payee.document } : { cnpj: payee.document };
  const pagador = {
    chave: payerKey,
    ...(request.description !== null && { infoPagador: request.description }),
  };
  const valor = centsToDecimal(request.amountCents);
  const d = payee.destination;
  // The key's holder document travels with the key: Efí refuses a key whose holder differs.
  if (d.type === 'PIX') return { valor, pagador, favorecido: { chave: d.pixKey, ...holder } };
  const tipoConta = ACCOUNT_TYPES[d.bankAccount.accountType];
  if (!tipoConta) return { refused: 'PAYEE_ACCOUNT_INVALID' };
  return {
    valor,
    pagador,
    favorecido: {
      contaBanco: {
        nome: payee.name,
        ...holder,
        codigoBanco: d.bankAccount.ispb,
        agencia: d.bankAccount.branch,
        conta: d.bankAccount.account.replace('-', ''),
        tipoConta,
      },
    },
  };
}

function refusal(answer: BcbAnswer & { ok: false }): PartnerOutcome<never> {
  return { ok: false, failureCode: answer.failureCode, retryable: answer.retryable };
}

export class EfiPixSendPayout {
  private readonly client: BcbApiPixClient;

  /**
   * `apiPix`: the partner's API Pix client, whose OAuth2 token (and certificate) the payout API
   * shares; `baseUrl`: the payout API's host; `payerKey`: our Pix key at Efí, the payer of every Pix
   * Send (it must have a webhook registered there).
   */
  constructor(
    apiPix: BcbApiPixClient,
    baseUrl: string,
    private readonly payerKey: string,
  ) {
    this.client = apiPix.sibling(baseUrl, mapEfiRefusal);
  }

  async sendPayment(request: PaymentRequest): Promise<PartnerOutcome<{ acceptedAt: number }>> {
    const body = pixSendBody(request, this.payerKey);
    if ('refused' in body) return { ok: false, failureCode: body.refused, retryable: false };
    const id = idEnvioOf(request.idempotencyId);
    const answer = await this.client.call('PUT', `/v3/gn/pix/${id}`, body);
    if (answer.ok) return { ok: true, value: { acceptedAt: Date.now() } };
    if (answer.status === 409 && (answer.body as { nome?: unknown } | null)?.nome === DUPLICATE_ID)
      return { ok: true, value: { acceptedAt: Date.now() } };
    return refusal(answer);
  }

  /** REALIZADO: settled; NAO_REALIZADO: failed; EM_PROCESSAMENTO: pending; 404: never arrived. */
  async transferStatus(transactionId: string): Promise<TransferStatus> {
    const answer = await this.client.call('GET', `/v2/gn/pix/enviados/id-envio/${idEnvioOf(transactionId)}`);
    if (!answer.ok) return answer.status === 404 ? { state: 'UNKNOWN' } : { state: 'PENDING' };
    const sent = answer.body as {
      status?: unknown;
      endToEndId?: unknown;
      horario?: { liquidacao?: unknown };
    };
    if (sent.status === 'REALIZADO' && typeof sent.endToEndId === 'string') {
      const settledAt = Date.parse(String(sent.horario?.liquidacao ?? ''));
      return {
        state: 'SETTLED',
        endToEndId: sent.endToEndId,
        settledAt: Number.isNaN(settledAt) ? Date.now() : settledAt,
      };
    }
    if (sent.status === 'NAO_REALIZADO') return { state: 'FAILED', failureCode: NOT_MADE.failureCode };
    return { state: 'PENDING' };
  }

  /**
   * Page `page` (from 0) of the Pix sent in [from, to) (`GET /v2/gn/pix/enviados`, the SDK's
   * pixSendList): the daily reconciliation's record of payouts at Efí.
   */
  async sentPage(from: Date, to: Date, page: number, size: number): Promise<PartnerOutcome<SentPixPage>> {
    const query = new URLSearchParams({
      inicio: from.toISOString(),
      fim: to.toISOString(),
      'paginacao.paginaAtual': String(page),
      'paginacao.itensPorPagina': String(size),
    });
    const answer = await this.client.call('GET', `/v2/gn/pix/enviados?${query}`);
    if (!answer.ok) return refusal(answer);
    const body = answer.body as {
      pix?: { endToEndId?: unknown; idEnvio?: unknown; valor?: unknown; status?: unknown }[];
      parametros?: { paginacao?: { quantidadeDePaginas?: unknown } };
    };
    const sent: SentPix[] = [];
    for (const p of body.pix ?? []) {
      const amountCents = decimalToCents(p.valor);
      if (typeof p.idEnvio !== 'string' || amountCents === undefined) continue;
      sent.push({
        idEnvio: p.idEnvio,
        endToEndId: typeof p.endToEndId === 'string' ? p.endToEndId : null,
        amountCents,
        status: String(p.status),
      });
    }
    const pages = body.parametros?.paginacao?.quantidadeDePaginas;
    return { ok: true, value: { sent, pages: typeof pages === 'number' ? pages : 1 } };
  }

  /** The account's balance now (`GET /v2/gn/saldo`), in centavos. */
  async balance(): Promise<PartnerOutcome<number>> {
    const answer = await this.client.call('GET', '/v2/gn/saldo');
    if (!answer.ok) return refusal(answer);
    const cents = decimalToCents((answer.body as { saldo?: unknown } | null)?.saldo);
    return cents === undefined
      ? { ok: false, failureCode: 'PROCESSING_ERROR', retryable: true }
      : { ok: true, value: cents };
  }
}

/** A Pix sent as Efí lists it: `idEnvio` is the Cash-Out's (idEnvioOf); status EM_PROCESSAMENTO, REALIZADO, NAO_REALIZADO. */
export interface SentPix {
  idEnvio: string;
  endToEndId: string | null;
  amountCents: number;
  status: string;
}

export interface SentPixPage {
  sent: SentPix[];
  pages: number;
}
