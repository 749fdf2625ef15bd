/**
 * Pix Automático over API Pix (bacen/pix-api 2.9.0, vendored at test/fixtures/bcb-pix-api): the
 * recurrence (`POST /rec`, `GET`/`PATCH /rec/{idRec}`), its QR location (`POST /locrec`, linked by
 * `rec.loc`), the request pushed to the payer's bank (`POST /solicrec`, `GET`/`PATCH
 * /solicrec/{idSolicRec}`), each cycle's charge (`PUT`/`GET`/`PATCH /cobr/{txid}`) and its retries
 * (`POST /cobr/{txid}/retentativa/{data}`), and where their callbacks go (`PUT /webhookrec`,
 * `PUT /webhookcobr`). Field formats are the document's schemas `RecSolicitada`, `SolicRecSolicitada`,
 * `CobRSolicitada` and `CobRCompleta`.
 */
import { documentKind } from '../../domain/documents';
import {
  type CancelledByAtPartner,
  CHARGE_PAID,
  type ChargeAttempt,
  type PartnerOutcome,
  type RecurrenceAtPartner,
  type RecurrencePort,
  type RecurrenceRegistration,
  type RecurringChargeAtPartner,
  type RegisteredRecurrence,
} from '../port';
import type { BcbAnswer, BcbApiPixClient } from './client';
import { centsToDecimal } from './money';

/** Where a partner credits recurring charges (`CobRSolicitada.recebedor`: our account at that PSP). */
export interface ReceivingAccountDeclaration {
  account: string;
  accountType: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';
  branch?: string;
}

function outcome<T>(answer: BcbAnswer, value: () => T): PartnerOutcome<T> {
  return answer.ok
    ? { ok: true, value: value() }
    : { ok: false, failureCode: answer.failureCode, retryable: answer.retryable };
}

/** `cpf` or `cnpj` as the document's `PessoaFisicaRecorrencia` / `PessoaJuridicaRecorrencia` name them. */
const documentOf = (document: string) =>
  documentKind(document) === 'CPF' ? { cpf: document } : { cnpj: document };

/** `encerramento.cancelamento.solicitante`: who ended it, in our terms (docs/contract.md, Pix Automático). */
const SOLICITANTE: Readonly<Record<string, CancelledByAtPartner>> = {
  USUARIO_RECEBEDOR: 'CLIENT',
  PSP_RECEBEDOR: 'CLIENT',
  USUARIO_PAGADOR: 'PAYER',
  PSP_PAGADOR: 'PAYER_BANK',
};

function cancelledByOf(body: { encerramento?: { cancelamento?: { solicitante?: unknown } } }) {
  const who = body.encerramento?.cancelamento?.solicitante;
  return typeof who === 'string' ? SOLICITANTE[who] : undefined;
}

const REC_STATUSES = ['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const;
const COBR_STATUSES = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'] as const;

/** A `RecCompleta` / `RecNotification` read in our terms, or undefined when malformed. */
export function parseRec(body: unknown): RecurrenceAtPartner | undefined {
  const r = body as { idRec?: unknown; status?: unknown } | null;
  if (typeof r?.idRec !== 'string' || !REC_STATUSES.includes(r.status as (typeof REC_STATUSES)[number]))
    return undefined;
  const cancelledBy = cancelledByOf(r as Parameters<typeof cancelledByOf>[0]);
  return {
    idRec: r.idRec,
    status: r.status as RecurrenceAtPartner['status'],
    ...(cancelledBy && { cancelledBy }),
  };
}

/** A `CobRCompleta` / `CobRNotification` read in our terms, or undefined when malformed. */
export function parseCobr(body: unknown): RecurringChargeAtPartner | undefined {
  const c = body as {
    txid?: unknown;
    idRec?: unknown;
    status?: unknown;
    tentativas?: unknown;
    pix?: unknown;
  } | null;
  if (
    typeof c?.txid !== 'string' ||
    typeof c.idRec !== 'string' ||
    !COBR_STATUSES.includes(c.status as (typeof COBR_STATUSES)[number])
  )
    return undefined;
  const attempts: ChargeAttempt[] = (Array.isArray(c.tentativas) ? c.tentativas : []).flatMap(
    (t: Record<string, unknown>) =>
      typeof t?.dataLiquidacao === 'string' && typeof t.status === 'string'
        ? [{ date: t.dataLiquidacao, status: t.status, endToEndId: String(t.endToEndId ?? '') }]
        : [],
  );
  const paidBy = (Array.isArray(c.pix) ? c.pix : []).flatMap((p: Record<string, unknown>) =>
    typeof p?.endToEndId === 'string' ? [p.endToEndId] : [],
  );
  const cancelledBy = cancelledByOf(c as Parameters<typeof cancelledByOf>[0]);
  return {
    txid: c.txid,
    idRec: c.idRec,
    status: c.status as RecurringChargeAtPartner['status'],
    attempts,
    paidBy,
    ...(cancelledBy && { cancelledBy }),
  };
}

/** `POST /rec` sends at most, each after looking for the one before it. */
const REC_SENDS = 3;
/** The creation-time window `findSent` reads beyond the first send (clocks a little apart). */
const FIND_SENT_MARGIN_MS = 5 * 60_000;
const FIND_SENT_PAGES = 5;

type RecSent = {
  vinculo: { contrato: string; devedor: { cpf?: string; cnpj?: string } };
  calendario: { dataInicial: string; dataFinal?: string; periodicidade: string };
  valor?: unknown;
  politicaRetentativa: string;
  loc?: number;
};

/** A listed recurrence (`RecCompletaPesquisada`) is the one `sent` created. */
function sameRec(listed: unknown, sent: RecSent): listed is { idRec: string } {
  const rec = listed as {
    idRec?: unknown;
    vinculo?: { contrato?: unknown; devedor?: { cpf?: unknown; cnpj?: unknown } };
    calendario?: Record<string, unknown>;
    politicaRetentativa?: unknown;
    valor?: unknown;
    loc?: { id?: unknown };
  } | null;
  const devedor = rec?.vinculo?.devedor ?? {};
  const calendario = rec?.calendario ?? {};
  return (
    typeof rec?.idRec === 'string' &&
    rec.vinculo?.contrato === sent.vinculo.contrato &&
    devedor.cpf === sent.vinculo.devedor.cpf &&
    devedor.cnpj === sent.vinculo.devedor.cnpj &&
    (['dataInicial', 'dataFinal', 'periodicidade'] as const).every(
      (k) => calendario[k] === sent.calendario[k],
    ) &&
    rec.politicaRetentativa === sent.politicaRetentativa &&
    JSON.stringify(rec.valor ?? {}) === JSON.stringify(sent.valor ?? {}) &&
    (rec.loc?.id ?? undefined) === sent.loc
  );
}

export class BcbRecurrences implements RecurrencePort {
  constructor(
    private readonly client: BcbApiPixClient,
    private readonly receiving: ReceivingAccountDeclaration,
  ) {}

  /**
   * QR journey (`JORNADA_2`): a location first (`POST /locrec`), the recurrence on it (`rec.loc`),
   * then its BR Code as the PSP issues it (`GET /rec/{idRec}` `dadosQR.pixCopiaECola`, the
   * document's examples recResponse3/6/7). PUSH journey (`JORNADA_1`): the recurrence, then the
   * request pushed to the payer's bank (`POST /solicrec`). 2.9.0 lets no client choose the `idRec`
   * (`POST /rec` answers the PSP's), so `POST /rec` is not simply sent again: an answer that did not
   * arrive is first looked for among the PSP's recurrences created since (`findSent`) and only when
   * none is ours is it sent again. A location is sent again like any read (one left unused is
   * linked to nothing and moves nothing). Once the recurrence exists, a journey that cannot be
   * completed cancels it at the PSP (`PATCH /rec/{idRec}`), so no unanswerable recurrence waits there.
   */
  async createRecurrence(r: RecurrenceRegistration): Promise<PartnerOutcome<RegisteredRecurrence>> {
    let loc: { id: number; location: string } | undefined;
    if (r.payerBank === null) {
      const created = await this.client.call('POST', '/locrec');
      if (!created.ok) return outcome(created, () => ({ idRec: '' }));
      const body = created.body as { id?: unknown; location?: unknown };
      if (typeof body.id !== 'number' || typeof body.location !== 'string')
        return { ok: false, failureCode: 'PROCESSING_ERROR', retryable: false };
      loc = { id: body.id, location: body.location };
    }
    const sent = {
      vinculo: {
        contrato: r.contract,
        devedor: { ...documentOf(r.payer.document), nome: r.payer.name.slice(0, 140) },
        ...(r.description !== null && { objeto: r.description }),
      },
      calendario: {
        dataInicial: r.startDate,
        ...(r.endDate !== null && { dataFinal: r.endDate }),
        periodicidade: r.periodicidade,
      },
      ...(r.fixedAmountCents !== null
        ? { valor: { valorRec: centsToDecimal(r.fixedAmountCents) } }
        : r.minimumAmountCents !== null
          ? { valor: { valorMinimoRecebedor: centsToDecimal(r.minimumAmountCents) } }
          : {}),
      politicaRetentativa: r.politicaRetentativa,
      ...(loc && { loc: loc.id }),
    };
    const created = await this.sendRec(sent, r);
    if (!created.ok) return created;
    const idRec = created.value;
    const finished = await this.journey(idRec, r, loc);
    // The payer could never answer it: taken down at the PSP (best effort; it expires there anyway).
    if (!finished.ok) await this.cancelRecurrence(idRec);
    return finished;
  }

  /** `POST /rec`, its lost answers looked for before it is sent again; the PSP's `idRec`. */
  private async sendRec(sent: RecSent, r: RecurrenceRegistration): Promise<PartnerOutcome<string>> {
    const since = Date.now() - FIND_SENT_MARGIN_MS;
    let last: PartnerOutcome<string> = { ok: false, failureCode: 'PROVIDER_UNAVAILABLE', retryable: true };
    for (let attempt = 0; attempt < REC_SENDS; attempt++) {
      const rec = await this.client.call('POST', '/rec', sent, { once: true });
      if (rec.ok) {
        const idRec = (rec.body as { idRec?: unknown }).idRec;
        return typeof idRec === 'string'
          ? { ok: true, value: idRec }
          : { ok: false, failureCode: 'PROCESSING_ERROR', retryable: false };
      }
      last = outcome(rec, () => '');
      if (!rec.retryable) return last;
      // No answer: the PSP may have created it all the same.
      const found = await this.findSent(sent, r, since);
      if (!found.ok) return found;
      if (found.value !== undefined) return { ok: true, value: found.value };
    }
    return last;
  }

  /**
   * A recurrence created at the PSP from `sent` since `since` that no recurrence of ours claims
   * (`GET /rec` by creation time, status CRIADA): the same payer, contract, calendar, amount,
   * retry policy and location. The list's `cpf` filter is not used: 2.9.0 writes its pattern with
   * slashes (`/^\d{11}$/`), so the payer is compared here.
   */
  private async findSent(
    sent: RecSent,
    r: RecurrenceRegistration,
    since: number,
  ): Promise<PartnerOutcome<string | undefined>> {
    const fim = new Date(Date.now() + FIND_SENT_MARGIN_MS).toISOString();
    for (let page = 0; page < FIND_SENT_PAGES; page++) {
      const query = new URLSearchParams({
        inicio: new Date(since).toISOString(),
        fim,
        status: 'CRIADA',
        'paginacao.paginaAtual': String(page),
        'paginacao.itensPorPagina': '100',
      });
      const answer = await this.client.call('GET', `/rec?${query}`);
      if (!answer.ok) return outcome(answer, () => undefined);
      const body = answer.body as {
        recs?: unknown;
        parametros?: { paginacao?: { quantidadeDePaginas?: unknown } };
      };
      for (const rec of Array.isArray(body.recs) ? body.recs : [])
        if (sameRec(rec, sent) && !(await r.claimed?.(rec.idRec))) return { ok: true, value: rec.idRec };
      const pages = body.parametros?.paginacao?.quantidadeDePaginas;
      if (typeof pages !== 'number' || page + 1 >= pages) break;
    }
    return { ok: true, value: undefined };
  }

  /** What the payer authorizes: the request pushed to their bank, or the PSP's BR Code. */
  private async journey(
    idRec: string,
    r: RecurrenceRegistration,
    loc: { id: number; location: string } | undefined,
  ): Promise<PartnerOutcome<RegisteredRecurrence>> {
    if (r.payerBank !== null) {
      const solic = await this.client.call(
        'POST',
        '/solicrec',
        {
          idRec,
          calendario: { dataExpiracaoSolicitacao: new Date(r.authorizationExpiresAt).toISOString() },
          destinatario: {
            ...documentOf(r.payer.document),
            ispbParticipante: r.payerBank.ispb,
            agencia: r.payerBank.branch,
            conta: r.payerBank.account,
          },
        },
        { once: true },
      );
      const idSolicRec = solic.ok ? (solic.body as { idSolicRec?: unknown }).idSolicRec : undefined;
      return outcome(solic, () => ({ idRec, ...(typeof idSolicRec === 'string' && { idSolicRec }) }));
    }
    const read = await this.client.call('GET', `/rec/${encodeURIComponent(idRec)}`);
    const qr = read.ok ? (read.body as { dadosQR?: { pixCopiaECola?: unknown } }).dadosQR : undefined;
    if (typeof qr?.pixCopiaECola !== 'string')
      return read.ok
        ? { ok: false, failureCode: 'PROCESSING_ERROR', retryable: false }
        : outcome(read, () => ({ idRec }));
    return { ok: true, value: { idRec, copyAndPaste: qr.pixCopiaECola, location: loc?.location ?? '' } };
  }

  async recurrence(idRec: string): Promise<PartnerOutcome<RecurrenceAtPartner>> {
    const answer = await this.client.call('GET', `/rec/${encodeURIComponent(idRec)}`);
    const parsed = answer.ok ? parseRec(answer.body) : undefined;
    if (answer.ok && !parsed) return { ok: false, failureCode: 'PROCESSING_ERROR', retryable: false };
    return outcome(answer, () => parsed as RecurrenceAtPartner);
  }

  /** `PATCH /rec/{idRec}` `status` CANCELADA (`RecRevisada`): the client ends the authorization. */
  async cancelRecurrence(idRec: string): Promise<PartnerOutcome<null>> {
    const answer = await this.client.call('PATCH', `/rec/${encodeURIComponent(idRec)}`, {
      status: 'CANCELADA',
    });
    return outcome(answer, () => null);
  }

  /** `GET /solicrec/{idSolicRec}`: where the pushed request stands (CRIADA … ACEITA, REJEITADA). */
  async authorizationRequest(idSolicRec: string): Promise<PartnerOutcome<{ status: string }>> {
    const answer = await this.client.call('GET', `/solicrec/${encodeURIComponent(idSolicRec)}`);
    return outcome(answer, () => ({ status: String((answer.body as { status?: unknown }).status) }));
  }

  /** `PATCH /solicrec/{idSolicRec}` `status` CANCELADA (`SolicRecRevisada`). */
  async cancelAuthorizationRequest(idSolicRec: string): Promise<PartnerOutcome<null>> {
    const answer = await this.client.call('PATCH', `/solicrec/${encodeURIComponent(idSolicRec)}`, {
      status: 'CANCELADA',
    });
    return outcome(answer, () => null);
  }

  /**
   * `PUT /cobr/{txid}` (`CobRSolicitada`): our TxId is the partner-side idempotency id, as for
   * `PUT /cob`, so a retry after a crash finds the same charge. `ajusteDiaUtil` true: a due date on
   * a weekend settles the next business day (docs/contract.md, Pix Automático).
   */
  async registerRecurringCharge(
    txid: string,
    idRec: string,
    amountCents: number,
    dueDate: string,
  ): Promise<PartnerOutcome<null>> {
    const answer = await this.client.call('PUT', `/cobr/${encodeURIComponent(txid)}`, {
      idRec,
      calendario: { dataDeVencimento: dueDate },
      valor: { original: centsToDecimal(amountCents) },
      ajusteDiaUtil: true,
      recebedor: {
        conta: this.receiving.account,
        tipoConta: this.receiving.accountType,
        ...(this.receiving.branch !== undefined && { agencia: this.receiving.branch }),
      },
    });
    return outcome(answer, () => null);
  }

  async recurringCharge(txid: string): Promise<PartnerOutcome<RecurringChargeAtPartner>> {
    const answer = await this.client.call('GET', `/cobr/${encodeURIComponent(txid)}`);
    const parsed = answer.ok ? parseCobr(answer.body) : undefined;
    if (answer.ok && !parsed) return { ok: false, failureCode: 'PROCESSING_ERROR', retryable: false };
    return outcome(answer, () => parsed as RecurringChargeAtPartner);
  }

  /** `PATCH /cobr/{txid}` `status` CANCELADA (`CobRRevisada`): the client cancels a cycle's charge. */
  async cancelRecurringCharge(txid: string): Promise<PartnerOutcome<null>> {
    const answer = await this.client.call('PATCH', `/cobr/${encodeURIComponent(txid)}`, {
      status: 'CANCELADA',
    });
    return outcome(answer, () => null);
  }

  /**
   * Takes a cycle's charge down (its Cash-In cancelled here): a paid one (CONCLUIDA) is a fact the
   * caller must not cancel over; one already ended, or never registered, is what was wanted.
   */
  async removeRecurringCharge(txid: string): Promise<PartnerOutcome<null>> {
    const answer = await this.cancelRecurringCharge(txid);
    if (answer.ok || answer.retryable) return answer;
    const charge = await this.recurringCharge(txid);
    if (charge.ok && charge.value.status === 'CONCLUIDA')
      return { ok: false, failureCode: CHARGE_PAID, retryable: false };
    const gone = charge.ok
      ? charge.value.status !== 'ATIVA' && charge.value.status !== 'CRIADA'
      : charge.failureCode === 'PROCESSING_ERROR';
    return gone ? { ok: true, value: null } : answer;
  }

  /** `POST /cobr/{txid}/retentativa/{data}`: one more attempt on `date`, the charge answered with its `tentativas`. */
  async retryCharge(txid: string, date: string): Promise<PartnerOutcome<RecurringChargeAtPartner>> {
    const answer = await this.client.call(
      'POST',
      `/cobr/${encodeURIComponent(txid)}/retentativa/${encodeURIComponent(date)}`,
    );
    const parsed = answer.ok ? parseCobr(answer.body) : undefined;
    if (answer.ok && !parsed) return { ok: false, failureCode: 'PROCESSING_ERROR', retryable: false };
    return outcome(answer, () => parsed as RecurringChargeAtPartner);
  }

  /** `PUT /webhookrec` and `PUT /webhookcobr`: the PSP posts to `{webhookUrl}/rec` and `{webhookUrl}/cobr`. */
  async registerWebhooks(webhookUrl: string): Promise<PartnerOutcome<null>> {
    const rec = await this.client.call('PUT', '/webhookrec', { webhookUrl });
    if (!rec.ok) return outcome(rec, () => null);
    return outcome(await this.client.call('PUT', '/webhookcobr', { webhookUrl }), () => null);
  }
}
