/**
 * Efí's Pix Send as its documentation records it (test/fixtures/efi-pix-send/README.md), books in
 * memory: `PUT /v3/gn/pix/{idEnvio}` and `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`. Runs inside
 * FakeBcbPsp (same host, same OAuth2 tokens), in Node or workerd; its exchanges are validated
 * against Efí's SDK schemas by test/support/efi-contract.ts on the Node side.
 */
const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
const refusal = (status: number, nome: string, mensagem: string) => json(status, { nome, mensagem });

export const EFI_SEND = '/v3/gn/pix/';
export const EFI_SENT = '/v2/gn/pix/enviados/id-envio/';
/** The list of Pix sent by period (the SDK's pixSendList) and the account balance (getAccountBalance). */
export const EFI_SENT_LIST = '/v2/gn/pix/enviados';
export const EFI_BALANCE = '/v2/gn/saldo';

export class FakeEfiPayout {
  readonly sent = new Map<string, any>();
  private faults: Response[] = [];
  private serial = 0;

  constructor(
    private readonly ispb: string,
    private readonly clock: () => number,
  ) {}

  /** The next Pix Send answer is this refusal (as documented: 400, 409, 422, 500 bodies). */
  failNext(status: number, nome: string): void {
    this.faults.push(refusal(status, nome, nome));
  }

  /** The network settles (REALIZADO) or refuses (NAO_REALIZADO) a send still EM_PROCESSAMENTO. */
  settle(idEnvio: string, ok: boolean, at?: string): any {
    const s = this.sent.get(idEnvio);
    s.status = ok ? 'REALIZADO' : 'NAO_REALIZADO';
    if (at) s.horario.solicitacao = at;
    if (ok) s.horario.liquidacao = at ?? new Date(this.clock()).toISOString();
    return s;
  }

  /**
   * What `GET /v2/gn/saldo` answers: set by a test (the PSP is shared by every test file), else
   * what `booksBalance` computes (the local mock's own books), else 0.
   */
  balance: string | undefined;
  booksBalance: (() => string) | undefined;

  /** The balance a caller is answered now. */
  saldo(): string {
    return this.balance ?? this.booksBalance?.() ?? '0.00';
  }

  /** A Pix sent that no request of ours made (a reconciliation break): settled at `at`. */
  inject(idEnvio: string, valor: string, at: string): any {
    const s = {
      endToEndId: `E${this.ispb}${at.replace(/\D/g, '').slice(0, 12)}API${String(++this.serial).padStart(8, '0')}`,
      idEnvio,
      valor,
      chave: 'pagamentos@connectpsp.example',
      status: 'REALIZADO',
      horario: { solicitacao: at, liquidacao: at },
      favorecido: { chave: 'someone@example.com' },
    };
    this.sent.set(idEnvio, s);
    return s;
  }

  /** A test changes a sent Pix after the fact (reconciliation breaks): its status, time or amount. */
  alter(idEnvio: string, change: { status?: string; valor?: string; at?: string; forget?: boolean }): any {
    const s = this.sent.get(idEnvio);
    if (!s) return null;
    if (change.forget) {
      this.sent.delete(idEnvio);
      return s;
    }
    if (change.status) s.status = change.status;
    if (change.valor) s.valor = change.valor;
    if (change.at) {
      s.horario.solicitacao = change.at;
      if (s.horario.liquidacao) s.horario.liquidacao = change.at;
    }
    return s;
  }

  handles(pathname: string): boolean {
    return (
      pathname.startsWith(EFI_SEND) ||
      pathname.startsWith(EFI_SENT) ||
      pathname === EFI_SENT_LIST ||
      pathname === EFI_BALANCE
    );
  }

  private list(url: URL): Response {
    const from = Date.parse(url.searchParams.get('inicio') ?? '');
    const to = Date.parse(url.searchParams.get('fim') ?? '');
    const all = [...this.sent.values()].filter(
      (s) => Date.parse(s.horario.solicitacao) >= from && Date.parse(s.horario.solicitacao) < to,
    );
    const page = Number(url.searchParams.get('paginacao.paginaAtual') ?? 0);
    const size = Number(url.searchParams.get('paginacao.itensPorPagina') ?? 100);
    return json(200, {
      parametros: {
        inicio: new Date(from).toISOString(),
        fim: new Date(to).toISOString(),
        paginacao: {
          paginaAtual: page,
          itensPorPagina: size,
          quantidadeDePaginas: Math.max(1, Math.ceil(all.length / size)),
          quantidadeTotalDeItens: all.length,
        },
      },
      pix: all.slice(page * size, (page + 1) * size),
    });
  }

  async handle(request: Request, pathname: string): Promise<Response> {
    if (pathname === EFI_SENT_LIST) return this.list(new URL(request.url));
    if (pathname === EFI_BALANCE) return json(200, { saldo: this.saldo() });
    if (pathname.startsWith(EFI_SENT)) {
      const s = this.sent.get(decodeURIComponent(pathname.slice(EFI_SENT.length)));
      if (!s)
        return json(
          404,
          {
            type: 'https://pix.bcb.gov.br/api/v2/error/PixEnviadoNaoEncontrado',
            title: 'Não Encontrado',
            status: 404,
            detail: 'Pix enviado não encontrado para o idEnvio informado.',
          },
          'application/problem+json',
        );
      return json(200, s);
    }
    const fault = this.faults.shift();
    if (fault) return fault;
    const idEnvio = decodeURIComponent(pathname.slice(EFI_SEND.length));
    if (this.sent.has(idEnvio))
      return refusal(
        409,
        'id_envio_duplicado',
        'O id de envio informado já foi utilizado em outro pagamento',
      );
    const body = (await request.json()) as any;
    const at = new Date(this.clock()).toISOString();
    const stamp = at.replace(/\D/g, '').slice(0, 12);
    const endToEndId = `E${this.ispb}${stamp}API${String(++this.serial).padStart(8, '0')}`;
    const favorecido = body.favorecido.chave
      ? { chave: body.favorecido.chave }
      : {
          contaBanco: {
            nome: body.favorecido.contaBanco.nome,
            ...(body.favorecido.contaBanco.cpf
              ? { cpf: body.favorecido.contaBanco.cpf }
              : { cnpj: body.favorecido.contaBanco.cnpj }),
            agencia: body.favorecido.contaBanco.agencia,
            conta: body.favorecido.contaBanco.conta,
            tipoConta: body.favorecido.contaBanco.tipoConta,
          },
        };
    this.sent.set(idEnvio, {
      endToEndId,
      idEnvio,
      valor: body.valor,
      chave: body.pagador.chave,
      status: 'EM_PROCESSAMENTO',
      ...(body.pagador.infoPagador !== undefined && { infoPagador: body.pagador.infoPagador }),
      horario: { solicitacao: at },
      favorecido,
    });
    return json(201, {
      endToEndId,
      idEnvio,
      valor: body.valor,
      horario: { solicitacao: at },
      status: 'EM_PROCESSAMENTO',
    });
  }
}
