/**
 * The recurrence payload a payer's bank reads at a recurrence's QR location (bacen/pix-api 2.9.0,
 * `GET /rec/{recUrlAccessToken}`, schema `RecPayload`, vendored in test/fixtures/bcb-pix-api): the
 * authorization the payer is asked to approve, and its status history.
 */
import type { Cents } from './money';
import { formatCents } from './money';
import { type Frequency, PERIODICIDADE, POLITICA_RETENTATIVA, type RetryPolicy } from './recurrence';

export type RecurrenceStatus = 'WAITING_AUTHORIZATION' | 'APPROVED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';

/** `RecAtualizacao.atualizacao[].status`. */
const REC_STATUS: Readonly<Record<RecurrenceStatus, string>> = {
  WAITING_AUTHORIZATION: 'CRIADA',
  APPROVED: 'APROVADA',
  REJECTED: 'REJEITADA',
  EXPIRED: 'EXPIRADA',
  CANCELLED: 'CANCELADA',
};

export interface RecurrencePayloadInput {
  recurrenceId: string;
  status: RecurrenceStatus;
  frequency: Frequency;
  startDate: string;
  endDate: string | null;
  amountCents: number | null;
  minimumAmountCents: number | null;
  retryPolicy: RetryPolicy;
  contract: string;
  description: string | null;
  payer: { name: string; document: string };
  /** The receiver as the payer sees it: the merchant's name and its settlement partner's ISPB. */
  receiver: { name: string; ispb: string };
  createdAtMs: number;
  approvedAtMs: number | null;
  endedAtMs: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `RecPayload`: idRec, vinculo, calendario, valor, politicaRetentativa, recebedor, atualizacao. The
 * receiver's CNPJ is left out: the gateway does not record its clients' CNPJ, and inventing one
 * would name the wrong company (docs/contract.md, Pix Automático).
 */
export function recurrencePayload(r: RecurrencePayloadInput) {
  const doc = r.payer.document;
  const ended = r.status === 'REJECTED' || r.status === 'EXPIRED' || r.status === 'CANCELLED';
  return {
    idRec: r.recurrenceId,
    vinculo: {
      ...(r.description !== null && { objeto: r.description }),
      devedor: { ...(doc.length === 11 ? { cpf: doc } : { cnpj: doc }), nome: r.payer.name },
      contrato: r.contract,
    },
    calendario: {
      dataInicial: r.startDate,
      ...(r.endDate !== null && { dataFinal: r.endDate }),
      periodicidade: PERIODICIDADE[r.frequency],
    },
    valor:
      r.amountCents !== null
        ? { valorRec: formatCents(r.amountCents as Cents) }
        : r.minimumAmountCents !== null
          ? { valorMinimoRecebedor: formatCents(r.minimumAmountCents as Cents) }
          : {},
    politicaRetentativa: POLITICA_RETENTATIVA[r.retryPolicy],
    recebedor: { nome: r.receiver.name, ispbParticipante: r.receiver.ispb },
    atualizacao: [
      { status: REC_STATUS.WAITING_AUTHORIZATION, data: iso(r.createdAtMs) },
      ...(r.approvedAtMs !== null ? [{ status: REC_STATUS.APPROVED, data: iso(r.approvedAtMs) }] : []),
      ...(ended && r.endedAtMs !== null ? [{ status: REC_STATUS[r.status], data: iso(r.endedAtMs) }] : []),
    ],
  };
}
