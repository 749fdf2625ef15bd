/**
 * A PSP implementing the central bank's API Pix that keeps its books in memory and answers as the
 * vendored document says (test/fixtures/bcb-pix-api/openapi.yaml): the counterpart of
 * bcb-pix-conformance.ts and of the Workers tests' fake partner (test/setup/fake-psp.ts).
 */
import { buildDynamicBrCode } from '../../src/domain/brcode';
import { FakeBcbRecurrences } from './fake-bcb-rec';
import { FakeEfiMed } from './fake-efi-med';
import { FakeEfiPayout } from './fake-efi-payout';

const ERR = 'https://pix.bcb.gov.br/api/v2/error/';
export const BASE = 'https://psp.test/api/v2';
export const TOKEN_URL = 'https://psp.test/oauth/token';

const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
const problem = (status: number, name: string, title: string) =>
  json(status, { type: `${ERR}${name}`, title, status, detail: title }, 'application/problem+json');

/** A PSP that keeps its books in memory and answers as the document says. */
export class FakeBcbPsp {
  now = Date.parse('2026-11-25T12:00:00Z');
  tokensIssued = 0;
  tokenSeconds = 3600;
  private readonly tokens = new Map<string, number>();
  readonly cobs = new Map<string, any>();
  readonly pix = new Map<string, any>();
  readonly webhooks = new Map<string, string>();
  /** Efí's account configuration (`/v2/gn/config`): which keys report the payer with each Pix. */
  config: any = { pix: { receberSemChave: true, chaves: {} } };
  /** Payments whose payer report the API's reads leave out: only their callbacks carry it. */
  readonly payerInCallbackOnly = new Set<string>();
  private read = (p: any) => {
    if (!p?.gnExtras || !this.payerInCallbackOnly.has(p.endToEndId)) return p;
    const { gnExtras: _g, ...rest } = p;
    return rest;
  };
  private faults: Response[] = [];
  /** The same PSP's payout API (Efí Pix Send), on the same host and tokens. */
  readonly payout = new FakeEfiPayout('09089356', () => this.now);
  /** Its MED infractions (Efí's API), on the same host and tokens. */
  readonly med = new FakeEfiMed(() => this.now);
  /** Pix Automático (`/rec`, `/solicrec`, `/cobr`, `/locrec`); a paid attempt is a Pix received here. */
  readonly rec = new FakeBcbRecurrences(
    '09089356',
    () => this.now,
    (e2e, valor, txid) => this.receive(e2e, valor, txid),
  );

  /**
   * Every token issued so far stops working before its time (revoked at the PSP). `answer`: what a
   * revoked token gets, the document's 403 AcessoNegado or the 401 an OAuth2 gateway answers.
   */
  revokeTokens(answer: 401 | 403 = 403): void {
    this.tokens.clear();
    this.revokedAnswer = answer;
  }
  private revokedAnswer: 401 | 403 = 403;

  /**
   * The account's balance as its own books have it: every Pix received, less every devolution and
   * every payout not refused (one in processing already holds its money). Centavos, from the
   * decimal strings, never through a float.
   */
  booksBalance(): string {
    const cents = (valor: string) => {
      const [reais = '0', fraction = ''] = String(valor).split('.');
      return Number(reais) * 100 + Number(`${fraction}00`.slice(0, 2));
    };
    let total = 0;
    for (const p of this.pix.values()) {
      total += cents(p.valor);
      for (const d of p.devolucoes) if (d.status !== 'NAO_REALIZADO') total -= cents(d.valor);
    }
    for (const s of this.payout.sent.values()) if (s.status !== 'NAO_REALIZADO') total -= cents(s.valor);
    const abs = Math.abs(total);
    return `${total < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  }

  /** The next API answer (not the token endpoint) is this one. */
  failNext(status: number, name: string): void {
    this.faults.push(problem(status, name, name));
  }
  /**
   * A payer pays the charge (at `horario`, now unless given): the PSP records a received Pix. The
   * payer is the charge's `devedor` unless given (`{nome, cpf | cnpj}`: a third party). As Efí does,
   * the Pix carries `gnExtras.pagador` `{nome, cpf | cnpj, codigoBanco}` once the report is enabled
   * for the charge's key (`PUT /v2/gn/config`); `codigoBanco` is the ISPB of the endToEndId.
   */
  pay(txid: string, e2eid: string, valor?: string, horario?: string, pagador?: any): any {
    const cob = this.cobs.get(txid);
    // The network routes no payment to a charge that is gone (removed or never registered).
    if (!cob || String(cob.status).startsWith('REMOVIDA')) return null;
    const holder = pagador ?? cob.devedor ?? { nome: 'Pagador Anonimo', cpf: '52998224725' };
    const reports = this.config.pix.chaves?.[cob.chave]?.recebimento?.webhook?.notificacao?.pagador === true;
    const p = {
      endToEndId: e2eid,
      txid,
      valor: valor ?? cob.valor.original,
      horario: horario ?? new Date(this.now).toISOString(),
      devolucoes: [],
      ...(reports && { gnExtras: { pagador: { ...holder, codigoBanco: e2eid.slice(1, 9) } } }),
    };
    cob.status = 'CONCLUIDA';
    this.pix.set(e2eid, p);
    return p;
  }
  /**
   * A Pix the PSP received without a charge of ours behind it: a txid we never issued, or none (a
   * payment to the key itself). The network delivers it all the same.
   */
  receive(e2eid: string, valor: string, txid?: string, horario?: string): any {
    const p = {
      endToEndId: e2eid,
      ...(txid !== undefined && { txid }),
      valor,
      horario: horario ?? new Date(this.now).toISOString(),
      devolucoes: [],
    };
    this.pix.set(e2eid, p);
    return p;
  }
  /** A test changes a received Pix after the fact (reconciliation breaks): its amount, or drops it. */
  alterPix(e2eid: string, change: { valor?: string; forget?: boolean }): any {
    const p = this.pix.get(e2eid);
    if (!p) return null;
    if (change.forget) this.pix.delete(e2eid);
    if (change.valor) p.valor = change.valor;
    return p;
  }
  /** The bank returns (part of) a payment itself: a MED claim or a devolution made at the PSP. */
  bankReturn(e2eid: string, id: string, valor: string, natureza: string): any {
    const d = {
      id,
      rtrId: `D${e2eid.slice(1, 9)}${new Date(this.now).toISOString().replace(/\D/g, '').slice(0, 12)}${id.padEnd(11, '0').slice(0, 11)}`,
      valor,
      natureza,
      horario: {
        solicitacao: new Date(this.now).toISOString(),
        liquidacao: new Date(this.now).toISOString(),
      },
      status: 'DEVOLVIDO',
    };
    this.pix.get(e2eid).devolucoes.push(d);
    return d;
  }
  /** The body of the callback the PSP posts for these Pix (as it has them now). */
  callbackBody(e2eids: string[]): { pix: any[] } {
    return { pix: e2eids.map((e) => this.pix.get(e)) };
  }
  /** The network settles (or refuses) a devolution. */
  settleDevolution(e2eid: string, id: string, ok: boolean): void {
    const d = this.pix.get(e2eid).devolucoes.find((x: any) => x.id === id);
    d.status = ok ? 'DEVOLVIDO' : 'NAO_REALIZADO';
    if (ok) d.horario.liquidacao = new Date(this.now).toISOString();
  }

  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.url.startsWith(TOKEN_URL)) {
      if (!request.headers.get('authorization')?.startsWith('Basic '))
        return json(401, { error: 'invalid_client' });
      const token = `t${++this.tokensIssued}`;
      this.tokens.set(token, this.now + this.tokenSeconds * 1000);
      return json(200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: this.tokenSeconds,
        scope: 'cob.write',
      });
    }
    const bearer = request.headers.get('authorization')?.replace('Bearer ', '') ?? '';
    if ((this.tokens.get(bearer) ?? 0) <= this.now)
      return this.revokedAnswer === 401
        ? json(401, { error: 'invalid_token' })
        : problem(403, 'AcessoNegado', 'Acesso negado');
    if (this.payout.handles(url.pathname)) return this.payout.handle(request, url.pathname);
    if (this.med.handles(url.pathname)) return this.med.handle(request, url);
    const fault = this.faults.shift();
    if (fault) return fault;
    const path = url.pathname.slice(new URL(BASE).pathname.length).split('/').map(decodeURIComponent);
    const text = request.method === 'GET' ? '' : await request.text();
    const body = text === '' ? undefined : JSON.parse(text);
    const [, root, a = '', sub, b = ''] = path;
    if (this.rec.handles(root)) return this.rec.handle(request.method, path, body, url.searchParams);
    if (root === 'cob' && request.method === 'PUT') {
      // The PSP's own location id (not our txid), and the BR Code that names it (2.9.0 CobGerada).
      const location = `psp.test/qr/v2/${crypto.randomUUID().replace(/-/g, '')}`;
      const cob = this.cobs.get(a) ?? {
        calendario: { criacao: new Date(this.now).toISOString(), expiracao: body.calendario.expiracao },
        txid: a,
        revisao: 0,
        loc: {
          id: this.cobs.size + 1,
          txid: a,
          location: `https://${location}`,
          tipoCob: 'cob',
          criacao: new Date(this.now).toISOString(),
        },
        location: `https://${location}`,
        status: 'ATIVA',
        ...(body.devedor && { devedor: body.devedor }),
        valor: { original: body.valor.original },
        chave: body.chave,
        pixCopiaECola: buildDynamicBrCode({
          location,
          amountCents: Math.round(Number(body.valor.original) * 100),
          merchantName: 'PSP DE TESTES COBRANCA',
          merchantCity: 'SAO PAULO',
        }),
      };
      this.cobs.set(a, cob);
      return json(201, cob);
    }
    if (root === 'cob' && request.method === 'PATCH') {
      const cob = this.cobs.get(a);
      if (!cob) return problem(404, 'NaoEncontrado', 'Cobrança não encontrada');
      // A paid charge cannot be taken down (the standard's CobOperacaoInvalida).
      if (cob.status !== 'ATIVA') return problem(400, 'CobOperacaoInvalida', `Cobrança ${cob.status}`);
      cob.status = body.status;
      cob.revisao += 1;
      return json(200, cob);
    }
    if (root === 'cob') {
      const cob = this.cobs.get(a);
      if (!cob) return problem(404, 'NaoEncontrado', 'Cobrança não encontrada');
      const pix = [...this.pix.values()].filter((p) => p.txid === a);
      return json(200, pix.length ? { ...cob, pix: pix.map(this.read) } : cob);
    }
    if (root === 'pix' && a === '') {
      const from = Date.parse(url.searchParams.get('inicio')!);
      const to = Date.parse(url.searchParams.get('fim')!);
      const all = [...this.pix.values()].filter(
        (p) => Date.parse(p.horario) >= from && Date.parse(p.horario) < to,
      );
      const page = Number(url.searchParams.get('paginacao.paginaAtual') ?? 0);
      const size = Number(url.searchParams.get('paginacao.itensPorPagina') ?? 100);
      const pix = all.slice(page * size, (page + 1) * size).map(this.read);
      const parametros = {
        inicio: new Date(from).toISOString(),
        fim: new Date(to).toISOString(),
        paginacao: {
          paginaAtual: page,
          itensPorPagina: size,
          quantidadeDePaginas: Math.max(1, Math.ceil(all.length / size)),
          quantidadeTotalDeItens: all.length,
        },
      };
      // PixConsultados lists "cobs" as required (a slip of the document, 2.8.2 and 2.9.0): send it empty.
      return json(200, { parametros, cobs: [], pix });
    }
    if (root === 'pix') {
      const p = this.pix.get(a);
      if (!p) return problem(404, 'NaoEncontrado', 'Pix não encontrado');
      if (sub === undefined) return json(200, this.read(p));
      let d = p.devolucoes.find((x: any) => x.id === b);
      if (request.method === 'GET')
        return d ? json(200, d) : problem(404, 'NaoEncontrado', 'Devolução não encontrada');
      if (!d) {
        // A devolution that was not made (NAO_REALIZADO) leaves its amount returnable.
        const given = p.devolucoes
          .filter((x: any) => x.status !== 'NAO_REALIZADO')
          .reduce((s: number, x: any) => s + Number(x.valor.replace('.', '')), 0);
        if (given + Number(body.valor.replace('.', '')) > Number(p.valor.replace('.', '')))
          return problem(400, 'PixDevolucaoInvalida', 'Valor acima do disponível');
        d = {
          id: b,
          // The return's end-to-end id is the PSP's own (pacs.004 RtrId), never the id we chose.
          rtrId: `D09089356${new Date(this.now).toISOString().replace(/\D/g, '').slice(0, 12)}${crypto.randomUUID().replace(/-/g, '').slice(0, 11)}`,
          valor: body.valor,
          horario: { solicitacao: new Date(this.now).toISOString() },
          status: 'EM_PROCESSAMENTO',
        };
        p.devolucoes.push(d);
      }
      return json(201, d);
    }
    if (root === 'gn' && a === 'config') {
      if (request.method === 'GET') return json(200, this.config);
      this.config = body;
      return new Response(null, { status: 204 });
    }
    if (root === 'webhook') {
      this.webhooks.set(a, body.webhookUrl);
      return new Response(null, { status: 200 });
    }
    return problem(404, 'NaoEncontrado', 'Recurso não encontrado');
  }
}
