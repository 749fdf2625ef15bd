/**
 * MED infractions at Efí (its `gn` extension of API Pix, beside Pix Send): `GET /v2/gn/infracoes`
 * (`inicio`, `fim`) lists the infractions against Pix the account received, and
 * `POST /v2/gn/infracoes/{idInfracao}/defesa` takes the receiver's answer, `{analise: "aceito" |
 * "rejeitado", justificativa}`; a client's defense contests the claim, so it goes as `rejeitado`.
 * Fields and statuses as Efí's Node SDK declares them (docs/contract.md, Disputes: sources).
 */
import type { BcbApiPixClient } from '../bcb-api-pix/client';
import { decimalToCents } from '../bcb-api-pix/money';
import type { DisputeDefense, PartnerOutcome, ReportedInfraction } from '../port';

/** Efí's infraction statuses: EM_DEFESA is still open (the answer is being analysed). */
const STATUS: Readonly<Record<string, ReportedInfraction['status']>> = {
  ABERTA: 'OPEN',
  EM_DEFESA: 'OPEN',
  ACEITA: 'ACCEPTED',
  REJEITADA: 'REJECTED',
  CANCELADA_EFI: 'CANCELLED',
};

interface EfiInfraction {
  idInfracao?: unknown;
  endToEndId?: unknown;
  valor?: unknown;
  status?: unknown;
  dadosAnalise?: { abertura?: unknown; prazoFinalizacao?: unknown; finalizacao?: unknown };
}

/** One listed infraction as the port reports it, or undefined when malformed (it is skipped). */
export function parseInfraction(raw: EfiInfraction): ReportedInfraction | undefined {
  const status = STATUS[String(raw.status)];
  const openedAt = Date.parse(String(raw.dadosAnalise?.abertura ?? ''));
  const respondBy = Date.parse(String(raw.dadosAnalise?.prazoFinalizacao ?? ''));
  if (typeof raw.idInfracao !== 'string' || typeof raw.endToEndId !== 'string' || !status) return undefined;
  if (Number.isNaN(openedAt) || Number.isNaN(respondBy)) return undefined;
  const amountCents = decimalToCents(raw.valor);
  const closedAt = Date.parse(String(raw.dadosAnalise?.finalizacao ?? ''));
  return {
    ...(!Number.isNaN(closedAt) && { closedAt }),
    id: raw.idInfracao,
    endToEndId: raw.endToEndId,
    status,
    openedAt,
    respondBy,
    ...(amountCents !== undefined && { amountCents }),
  };
}

export class EfiInfractions {
  constructor(private readonly client: BcbApiPixClient) {}

  /** Infractions opened in [since, now]. */
  async list(since: number, now = Date.now()): Promise<PartnerOutcome<ReportedInfraction[]>> {
    const query = new URLSearchParams({
      inicio: new Date(since).toISOString(),
      fim: new Date(now).toISOString(),
    });
    const answer = await this.client.call('GET', `/v2/gn/infracoes?${query}`);
    if (!answer.ok) return { ok: false, failureCode: answer.failureCode, retryable: answer.retryable };
    const listed = (answer.body as { infracoes?: EfiInfraction[] } | null)?.infracoes ?? [];
    const value = listed.map(parseInfraction).filter((i): i is ReportedInfraction => i !== undefined);
    return { ok: true, value };
  }

  async defend(defense: DisputeDefense): Promise<PartnerOutcome<null>> {
    const answer = await this.client.call(
      'POST',
      `/v2/gn/infracoes/${encodeURIComponent(defense.disputeId)}/defesa`,
      { analise: 'rejeitado', justificativa: defense.text },
    );
    if (!answer.ok) return { ok: false, failureCode: answer.failureCode, retryable: answer.retryable };
    return { ok: true, value: null };
  }
}
