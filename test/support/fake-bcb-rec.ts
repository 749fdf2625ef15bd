/**
 * Pix Automático at the fake API Pix PSP (fake-bcb-psp.ts), as bacen/pix-api 2.9.0 shapes it:
 * `/locrec`, `/rec`, `/solicrec`, `/cobr` with `/retentativa/{data}`, `/webhookrec`, `/webhookcobr`.
 * The payer's side is played by the controls (approve, reject, cancel as the payer, an attempt paid
 * or failed, a charge cancelled by the payer); each change is what the `rec` and `cobr` callbacks
 * carry. A paid attempt is a Pix received under the charge's txid, in the PSP's books.
 */
import { buildDynamicBrCode } from '../../src/domain/brcode';

const ERR = 'https://pix.bcb.gov.br/api/v2/error/';
const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
const problem = (status: number, name: string, title: string) =>
  json(status, { type: `${ERR}${name}`, title, status, detail: title }, 'application/problem+json');
const alnum = (n: number) => {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => chars[b % chars.length]).join('');
};

export class FakeBcbRecurrences {
  readonly locs = new Map<number, any>();
  readonly recs = new Map<string, any>();
  readonly solics = new Map<string, any>();
  readonly cobrs = new Map<string, any>();
  /** `PUT /webhookrec`, `PUT /webhookcobr`: where the callbacks go (+ `/rec`, `/cobr`). */
  webhookRec: string | null = null;
  webhookCobr: string | null = null;
  constructor(
    private readonly ispb: string,
    private readonly clock: () => number,
    /** Books a received Pix (the PSP's `pix`), as a payment of a charge does. */
    private readonly receive: (e2eid: string, valor: string, txid: string) => any,
  ) {}

  private get iso() {
    return new Date(this.clock()).toISOString();
  }

  handles(root: string | undefined): boolean {
    return ['locrec', 'rec', 'solicrec', 'cobr', 'webhookrec', 'webhookcobr'].includes(root ?? '');
  }

  handle(method: string, path: string[], body: any, query = new URLSearchParams()): Response {
    const [, root, a = '', sub, b = ''] = path;
    if (root === 'webhookrec' || root === 'webhookcobr') {
      if (root === 'webhookrec') this.webhookRec = body.webhookUrl;
      else this.webhookCobr = body.webhookUrl;
      return new Response(null, { status: 200 });
    }
    if (root === 'locrec' && method === 'POST') {
      const id = this.locs.size + 1;
      const loc = {
        id,
        location: `https://psp.test/qr/v2/rec/${crypto.randomUUID().replace(/-/g, '')}`,
        criacao: this.iso,
      };
      this.locs.set(id, loc);
      return json(201, loc);
    }
    if (root === 'rec' && method === 'POST') return this.createRec(body);
    if (root === 'rec' && a === '' && method === 'GET') return this.listRecs(query);
    if (root === 'rec') {
      const rec = this.recs.get(a);
      if (!rec) return problem(404, 'NaoEncontrado', 'Recorrência não encontrada');
      if (method === 'GET') return json(200, this.recView(rec));
      if (rec.status !== 'CRIADA' && rec.status !== 'APROVADA')
        return problem(400, 'RecOperacaoInvalida', `Recorrência ${rec.status}`);
      this.endRec(rec, 'CANCELADA', 'USUARIO_RECEBEDOR', 'SLCR');
      return json(200, this.recView(rec));
    }
    if (root === 'solicrec' && method === 'POST') {
      const rec = this.recs.get(body.idRec);
      if (!rec) return problem(404, 'NaoEncontrado', 'Recorrência não encontrada');
      const solic = {
        idSolicRec: `SC${this.ispb}${this.iso.slice(0, 10).replace(/-/g, '')}${alnum(11)}`,
        idRec: body.idRec,
        calendario: body.calendario,
        destinatario: body.destinatario,
        status: 'ENVIADA',
        atualizacao: [
          { status: 'CRIADA', data: this.iso },
          { status: 'ENVIADA', data: this.iso },
        ],
      };
      this.solics.set(solic.idSolicRec, solic);
      rec.solicitacao = solic.idSolicRec;
      return json(201, solic);
    }
    if (root === 'solicrec') {
      const solic = this.solics.get(a);
      if (!solic) return problem(404, 'NaoEncontrado', 'Solicitação não encontrada');
      if (method === 'PATCH') {
        solic.status = 'CANCELADA';
        solic.atualizacao.push({ status: 'CANCELADA', data: this.iso });
        return json(201, solic);
      }
      return json(200, solic);
    }
    if (root === 'cobr' && sub === 'retentativa') return this.retry(a, b);
    if (root === 'cobr' && method === 'PUT') return this.createCobr(a, body);
    if (root === 'cobr') {
      const cobr = this.cobrs.get(a);
      if (!cobr) return problem(404, 'NaoEncontrado', 'Cobrança não encontrada');
      if (method === 'GET') return json(200, cobr);
      if (cobr.status !== 'ATIVA' && cobr.status !== 'CRIADA')
        return problem(400, 'CobROperacaoInvalida', `Cobrança ${cobr.status}`);
      this.endCobr(cobr, 'CANCELADA', {
        cancelamento: {
          solicitante: 'USUARIO_RECEBEDOR',
          codigo: 'SLCR',
          descricao: 'Cancelada pelo recebedor',
        },
      });
      return json(200, cobr);
    }
    return problem(404, 'NaoEncontrado', 'Recurso não encontrado');
  }

  private createRec(body: any): Response {
    if (body.loc !== undefined && !this.locs.has(body.loc))
      return problem(400, 'RecOperacaoInvalida', 'Location inexistente');
    const retries = body.politicaRetentativa === 'PERMITE_3R_7D';
    const idRec = `R${retries ? 'R' : 'N'}${this.ispb}${this.iso.slice(0, 10).replace(/-/g, '')}${alnum(11)}`;
    const loc = body.loc === undefined ? undefined : { ...this.locs.get(body.loc), idRec };
    const rec = {
      idRec,
      vinculo: body.vinculo,
      calendario: body.calendario,
      ...(body.valor && { valor: body.valor }),
      politicaRetentativa: body.politicaRetentativa,
      recebedor: { cnpj: '12345678000195', nome: 'ConnectPSP Pagamentos S.A.', ispbParticipante: this.ispb },
      status: 'CRIADA',
      ...(loc && { loc }),
      atualizacao: [{ status: 'CRIADA', data: this.iso }],
      ativacao: { tipoJornada: loc ? 'JORNADA_2' : 'JORNADA_1' },
    };
    this.recs.set(idRec, rec);
    return json(201, rec);
  }

  /** `GET /rec` (`RecsConsultadas`): by creation time, status and location, one page. */
  private listRecs(query: URLSearchParams): Response {
    const inicio = Date.parse(query.get('inicio') ?? '');
    const fim = Date.parse(query.get('fim') ?? '');
    const status = query.get('status');
    const page = Number(query.get('paginacao.paginaAtual') ?? 0);
    const size = Number(query.get('paginacao.itensPorPagina') ?? 100);
    const all = [...this.recs.values()].filter((r) => {
      const created = Date.parse(r.atualizacao[0].data);
      return created >= inicio && created <= fim && (status === null || r.status === status);
    });
    return json(200, {
      parametros: {
        inicio: new Date(inicio).toISOString(),
        fim: new Date(fim).toISOString(),
        ...(status !== null && { status }),
        paginacao: {
          paginaAtual: page,
          itensPorPagina: size,
          quantidadeDePaginas: Math.max(1, Math.ceil(all.length / size)),
          quantidadeTotalDeItens: all.length,
        },
      },
      recs: all.slice(page * size, (page + 1) * size).map((r) => {
        const { solicitacao: _s, ...view } = r;
        return view;
      }),
    });
  }

  /** `RecCompleta`; the QR journey's BR Code as the document's examples carry it (`dadosQR`). */
  private recView(rec: any) {
    const { solicitacao: _s, ...view } = rec;
    if (!rec.loc || rec.status !== 'CRIADA') return view;
    const amountCents = rec.valor?.valorRec ? Math.round(Number(rec.valor.valorRec) * 100) : undefined;
    return {
      ...view,
      dadosQR: {
        jornada: 'JORNADA_2',
        pixCopiaECola: buildDynamicBrCode({
          location: rec.loc.location.replace(/^https:\/\//, ''),
          amountCents,
          merchantName: 'PSP DE TESTES COBRANCA',
          merchantCity: 'SAO PAULO',
        }),
      },
    };
  }

  private endRec(rec: any, status: string, solicitante?: string, codigo?: string): void {
    rec.status = status;
    rec.atualizacao.push({ status, data: this.iso });
    if (status === 'CANCELADA')
      rec.encerramento = { cancelamento: { solicitante, codigo, descricao: 'Cancelamento da recorrência' } };
    if (status === 'REJEITADA')
      rec.encerramento = { rejeicao: { codigo: 'AP13', descricao: 'Rejeitada pelo pagador' } };
    const solic = rec.solicitacao && this.solics.get(rec.solicitacao);
    if (solic && status === 'APROVADA') solic.status = 'ACEITA';
    if (solic && status === 'REJEITADA') solic.status = 'REJEITADA';
  }

  private createCobr(txid: string, body: any): Response {
    const existing = this.cobrs.get(txid);
    if (existing) return json(201, existing); // the same txid: the first charge, as a PUT is
    const rec = this.recs.get(body.idRec);
    if (!rec) return problem(404, 'NaoEncontrado', 'Recorrência não encontrada');
    if (rec.status !== 'APROVADA') return problem(400, 'CobROperacaoInvalida', `Recorrência ${rec.status}`);
    const cobr = {
      idRec: body.idRec,
      txid,
      calendario: { criacao: this.iso.slice(0, 10), dataDeVencimento: body.calendario.dataDeVencimento },
      valor: body.valor,
      ajusteDiaUtil: body.ajusteDiaUtil,
      recebedor: { ...body.recebedor, cnpj: '12345678000195', nome: 'ConnectPSP Pagamentos S.A.' },
      politicaRetentativa: rec.politicaRetentativa,
      status: 'ATIVA',
      atualizacao: [
        { status: 'CRIADA', data: this.iso },
        { status: 'ATIVA', data: this.iso },
      ],
      tentativas: [] as any[],
    };
    this.cobrs.set(txid, cobr);
    return json(201, cobr);
  }

  private endCobr(cobr: any, status: string, encerramento?: unknown): void {
    cobr.status = status;
    cobr.atualizacao.push({ status, data: this.iso });
    if (encerramento) cobr.encerramento = encerramento;
  }

  /** The open attempt (SOLICITADA/AGENDADA), or a new one on `date`. */
  private attempt(cobr: any, date: string, tipo = 'AGND') {
    const open = cobr.tentativas.find((t: any) => t.status === 'AGENDADA' || t.status === 'SOLICITADA');
    if (open) return open;
    const t = {
      dataLiquidacao: date,
      tipo,
      endToEndId: `E${this.ispb}${this.iso.replace(/\D/g, '').slice(0, 12)}${alnum(11)}`,
      status: 'AGENDADA',
      atualizacao: [{ status: 'AGENDADA', data: this.iso }],
    };
    cobr.tentativas.push(t);
    return t;
  }

  private retry(txid: string, date: string): Response {
    const cobr = this.cobrs.get(txid);
    if (!cobr) return problem(404, 'NaoEncontrado', 'Cobrança não encontrada');
    const retries = cobr.tentativas.filter((t: any) => t.tipo === 'RIFL').length;
    if (cobr.politicaRetentativa !== 'PERMITE_3R_7D' || cobr.status !== 'ATIVA' || retries >= 3)
      return problem(400, 'CobROperacaoInvalida', 'Retentativa não permitida');
    this.attempt(cobr, date, 'RIFL');
    return json(201, cobr);
  }

  // The payer's side (controls).

  approve(idRec: string): any {
    const rec = this.recs.get(idRec);
    if (rec?.status === 'CRIADA') this.endRec(rec, 'APROVADA');
    return rec ?? null;
  }
  reject(idRec: string): any {
    const rec = this.recs.get(idRec);
    if (rec?.status === 'CRIADA') this.endRec(rec, 'REJEITADA');
    return rec ?? null;
  }
  payerCancels(idRec: string): any {
    const rec = this.recs.get(idRec);
    if (rec && (rec.status === 'CRIADA' || rec.status === 'APROVADA'))
      this.endRec(rec, 'CANCELADA', 'USUARIO_PAGADOR', 'ACCL');
    return rec ?? null;
  }
  /** The payer's bank pays the charge's attempt now: a Pix received under its txid. */
  payAttempt(txid: string): any {
    const cobr = this.cobrs.get(txid);
    if (cobr?.status !== 'ATIVA') return null;
    const t = this.attempt(cobr, cobr.calendario.dataDeVencimento);
    t.status = 'PAGA';
    t.atualizacao.push({ status: 'PAGA', data: this.iso });
    const pix = this.receive(t.endToEndId, cobr.valor.original, txid);
    cobr.pix = [pix];
    this.endCobr(cobr, 'CONCLUIDA');
    return cobr;
  }
  /** The attempt fails (no balance); `final`: the last one, the charge ends REJEITADA. */
  failAttempt(txid: string, final = false): any {
    const cobr = this.cobrs.get(txid);
    if (cobr?.status !== 'ATIVA') return null;
    const t = this.attempt(cobr, cobr.calendario.dataDeVencimento);
    t.status = 'REJEITADA';
    t.atualizacao.push({ status: 'REJEITADA', data: this.iso });
    t.rejeicao = { codigo: 'AM09', descricao: 'Saldo insuficiente' };
    if (final)
      this.endCobr(cobr, 'REJEITADA', { rejeicao: { codigo: 'AM09', descricao: 'Saldo insuficiente' } });
    return cobr;
  }
  /** The payer cancels the charge in their bank (until the day before it is due). */
  payerCancelsCharge(txid: string): any {
    const cobr = this.cobrs.get(txid);
    if (cobr?.status !== 'ATIVA') return null;
    this.endCobr(cobr, 'CANCELADA', {
      cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLCR', descricao: 'Cancelada pelo pagador' },
    });
    return cobr;
  }

  /** The `rec` callback body (`WebhookRecBody`) for these recurrences, as the PSP has them now. */
  recCallback(idRecs: string[]) {
    return {
      recs: idRecs.flatMap((id) => {
        const r = this.recs.get(id);
        if (!r) return [];
        return [
          {
            idRec: r.idRec,
            status: r.status,
            atualizacao: r.atualizacao,
            ...(r.encerramento && { encerramento: r.encerramento }),
            ativacao: r.ativacao,
          },
        ];
      }),
    };
  }
  /** The `cobr` callback body (`WebhookCobRBody`). */
  cobrCallback(txids: string[]) {
    return {
      cobsr: txids.flatMap((txid) => {
        const c = this.cobrs.get(txid);
        if (!c) return [];
        return [
          {
            idRec: c.idRec,
            txid: c.txid,
            status: c.status,
            atualizacao: c.atualizacao,
            ...(c.encerramento && { encerramento: c.encerramento }),
            tentativas: c.tentativas,
            ...(c.pix && { pix: c.pix }),
          },
        ];
      }),
    };
  }
}
