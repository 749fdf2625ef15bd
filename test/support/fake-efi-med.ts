/**
 * The fake PSP's MED infractions, as Efí's API has them (src/partners/efi-pix-send/infractions.ts
 * names the source): `GET /v2/gn/infracoes?inicio&fim` and `POST /v2/gn/infracoes/{idInfracao}/defesa`
 * `{analise, justificativa}`. Runs inside the fake PSP (test/setup/fake-psp.ts), which opens and
 * decides infractions on a test's word. Every request outside that shape is recorded as invalid.
 */
export const EFI_MED = '/v2/gn/infracoes';

export interface FakeInfraction {
  idInfracao: string;
  endToEndId: string;
  valor: string;
  status: 'ABERTA' | 'EM_DEFESA' | 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI';
  razao: string;
  defesa?: string;
  /** Defense requests received for it (a fake's count, not Efí's field). */
  defenseRequests: number;
  dadosAnalise: {
    abertura: string;
    prazoFinalizacao: string;
    recebimentoDefesa?: string;
    finalizacao?: string;
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export class FakeEfiMed {
  readonly infractions = new Map<string, FakeInfraction>();
  readonly invalid: string[] = [];
  private serial = 0;

  constructor(private readonly now: () => number) {}

  handles(pathname: string): boolean {
    return pathname === EFI_MED || pathname.startsWith(`${EFI_MED}/`);
  }

  /** The payer's bank opens an infraction against a received Pix; Efí blocks `valor`. */
  open(endToEndId: string, valor: string, respondMs = 7 * 24 * 3_600_000): FakeInfraction {
    const at = this.now();
    const infraction: FakeInfraction = {
      idInfracao: `INF${Date.now()}${++this.serial}`,
      endToEndId,
      valor,
      status: 'ABERTA',
      razao: 'Golpe',
      defenseRequests: 0,
      dadosAnalise: {
        abertura: new Date(at).toISOString(),
        prazoFinalizacao: new Date(at + respondMs).toISOString(),
      },
    };
    this.infractions.set(infraction.idInfracao, infraction);
    return infraction;
  }

  decide(idInfracao: string, status: 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI'): FakeInfraction | null {
    const infraction = this.infractions.get(idInfracao);
    if (!infraction) return null;
    infraction.status = status;
    infraction.dadosAnalise.finalizacao = new Date(this.now()).toISOString();
    return infraction;
  }

  async handle(request: Request, url: URL): Promise<Response> {
    if (request.method === 'GET' && url.pathname === EFI_MED) {
      const from = Date.parse(url.searchParams.get('inicio') ?? '');
      const to = Date.parse(url.searchParams.get('fim') ?? '');
      if (Number.isNaN(from) || Number.isNaN(to)) {
        this.invalid.push(`GET ${url.pathname}${url.search}: inicio and fim are required`);
        return json(400, { nome: 'parametros_invalidos' });
      }
      const infracoes = [...this.infractions.values()]
        .filter((i) => {
          const opened = Date.parse(i.dadosAnalise.abertura);
          return opened >= from && opened <= to;
        })
        .map(({ defenseRequests: _, ...efi }) => efi);
      return json(200, {
        parametros: { inicio: url.searchParams.get('inicio'), fim: url.searchParams.get('fim') },
        infracoes,
      });
    }
    const id = /^\/v2\/gn\/infracoes\/([^/]+)\/defesa$/.exec(url.pathname)?.[1];
    if (request.method === 'POST' && id !== undefined) {
      const body = (await request.json().catch(() => null)) as {
        analise?: unknown;
        justificativa?: unknown;
      } | null;
      const keys = Object.keys(body ?? {})
        .sort()
        .join(',');
      if (
        keys !== 'analise,justificativa' ||
        !['aceito', 'rejeitado'].includes(String(body?.analise)) ||
        typeof body?.justificativa !== 'string'
      ) {
        this.invalid.push(`POST ${url.pathname}: body ${JSON.stringify(body)}`);
        return json(400, { nome: 'corpo_invalido' });
      }
      const infraction = this.infractions.get(decodeURIComponent(id));
      if (!infraction) return json(404, { nome: 'infracao_nao_encontrada' });
      infraction.defenseRequests += 1;
      if (infraction.status !== 'ABERTA') return json(422, { nome: 'defesa_nao_permitida' });
      infraction.status = 'EM_DEFESA';
      infraction.defesa = body.justificativa as string;
      infraction.dadosAnalise.recebimentoDefesa = new Date(this.now()).toISOString();
      return json(200, {});
    }
    this.invalid.push(`${request.method} ${url.pathname}: no such Efí MED operation`);
    return json(404, { nome: 'nao_encontrado' });
  }
}
