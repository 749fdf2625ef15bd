/**
 * The charge payload a wallet reads at the BR Code location (BCB API Pix, dynamic "cob"): what to
 * pay, to whom, until when, and whether it is still payable.
 */
import type { CashInView } from './cash-in';
import { formatCents } from './money';

const COB_STATUS: Record<CashInView['status'], string> = {
  AWAITING_PAYMENT: 'ATIVA',
  PAID: 'CONCLUIDA',
  REFUNDED: 'CONCLUIDA',
  EXPIRED: 'REMOVIDA_PELO_PSP',
  CANCELLED: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
};

export interface ChargePayloadInput {
  cashIn: CashInView;
  amountCents: number;
  requestedAtMs: number;
  expiresAtMs: number;
  /** Receiving PIX key (EVP) of the settlement account. */
  receiverKey: string;
  nowMs: number;
}

export function chargePayload(input: ChargePayloadInput) {
  const { cashIn } = input;
  const document = cashIn.payer.document;
  return {
    revisao: 0,
    calendario: {
      criacao: new Date(input.requestedAtMs).toISOString(),
      apresentacao: new Date(input.nowMs).toISOString(),
      expiracao: Math.round((input.expiresAtMs - input.requestedAtMs) / 1000),
    },
    txid: cashIn.transactionId,
    status: COB_STATUS[cashIn.status],
    devedor: {
      ...(document.length === 11 ? { cpf: document } : { cnpj: document }),
      nome: cashIn.payer.name,
    },
    valor: { original: formatCents(input.amountCents) },
    chave: input.receiverKey,
  };
}
