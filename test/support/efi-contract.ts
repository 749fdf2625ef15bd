/**
 * Validates Pix Send exchanges against Efí's own published contract: the zod schemas of its official
 * SDK (`sdk-node-apis-efi`, MIT: PixSendParams/Body/Response, PixSendDetailIdResponse) and, for
 * what the SDK leaves open, the documented rules quoted in test/fixtures/efi-pix-send/README.md
 * (idEnvio `^[a-zA-Z0-9]{1,35}$`, refusals `{nome, mensagem}`, 404 as a problem). Node only.
 */
import {
  GetAccountBalanceResponseSchema,
  ListAccountConfigResponseSchema,
  PixSendBodySchema,
  PixSendDetailIdResponseSchema,
  PixSendListParamsSchema,
  PixSendListResponseSchema,
  PixSendParamsSchema,
  PixSendResponseSchema,
  UpdateAccountConfigBodySchema,
} from 'sdk-node-apis-efi';
import { EFI_BALANCE, EFI_SEND, EFI_SENT, EFI_SENT_LIST } from './fake-efi-payout';

const ID_ENVIO = /^[a-zA-Z0-9]{1,35}$/;
/** Efí's account configuration (`PUT`/`GET /v2/gn/config`), where the payer report is enabled per key. */
const EFI_CONFIG = '/v2/gn/config';

interface Check {
  safeParse(value: unknown): { success: boolean; error?: { message: string } };
}

export class EfiContractValidator {
  readonly invalid: string[] = [];
  readonly operations = new Set<string>();
  requests = 0;

  static covers(url: string): boolean {
    const { pathname } = new URL(url);
    return (
      pathname.endsWith(EFI_CONFIG) ||
      pathname.startsWith(EFI_SEND) ||
      pathname.startsWith(EFI_SENT) ||
      pathname === EFI_SENT_LIST ||
      pathname === EFI_BALANCE
    );
  }

  private check(what: string, schema: Check, value: unknown): void {
    const result = schema.safeParse(value);
    if (!result.success) this.invalid.push(`${what}: ${result.error?.message}`);
  }

  async exchange(request: Request, response: Response): Promise<void> {
    this.requests++;
    const { pathname } = new URL(request.url);
    const status = response.status;
    const body = await response.json().catch(() => undefined);
    const where = `${request.method} ${pathname} ${status}`;
    if (request.method === 'PUT' && pathname.startsWith(EFI_SEND)) {
      this.operations.add(`PUT ${EFI_SEND}{idEnvio}`);
      const idEnvio = decodeURIComponent(pathname.slice(EFI_SEND.length));
      this.check(`${where} params`, PixSendParamsSchema, { idEnvio });
      if (!ID_ENVIO.test(idEnvio)) this.invalid.push(`${where}: idEnvio ${idEnvio} is not [a-zA-Z0-9]{1,35}`);
      this.check(`${where} request`, PixSendBodySchema, await request.json().catch(() => undefined));
      if (status === 201) this.check(`${where} response`, PixSendResponseSchema, body);
      else this.refusal(where, body);
      return;
    }
    if (request.method === 'GET' && pathname.startsWith(EFI_SENT)) {
      this.operations.add(`GET ${EFI_SENT}{idEnvio}`);
      if (status === 200) this.check(`${where} response`, PixSendDetailIdResponseSchema, body);
      else if (status === 404) this.problem(where, body);
      else this.refusal(where, body);
      return;
    }
    if (request.method === 'GET' && pathname === EFI_SENT_LIST) {
      this.operations.add(`GET ${EFI_SENT_LIST}`);
      const query = Object.fromEntries(new URL(request.url).searchParams);
      // The SDK types the page numbers as numbers; on the wire every query value is a string.
      for (const k of ['paginacao.paginaAtual', 'paginacao.itensPorPagina'])
        if (k in query) (query as Record<string, unknown>)[k] = Number(query[k]);
      this.check(`${where} params`, PixSendListParamsSchema, query);
      if (status === 200) this.check(`${where} response`, PixSendListResponseSchema, body);
      else this.refusal(where, body);
      return;
    }
    if (request.method === 'GET' && pathname === EFI_BALANCE) {
      this.operations.add(`GET ${EFI_BALANCE}`);
      if (status === 200) this.check(`${where} response`, GetAccountBalanceResponseSchema, body);
      else this.refusal(where, body);
      return;
    }
    if (pathname.endsWith(EFI_CONFIG)) {
      // Efí's account configuration, on the API Pix host: the payer report's switch.
      this.operations.add(`${request.method} ${EFI_CONFIG}`);
      if (request.method === 'PUT') {
        this.check(
          `${where} request`,
          UpdateAccountConfigBodySchema,
          await request.json().catch(() => undefined),
        );
        if (status !== 204) this.refusal(where, body);
      } else if (status === 200) this.check(`${where} response`, ListAccountConfigResponseSchema, body);
      return;
    }
    this.invalid.push(`${where}: not an operation of Pix Send`);
  }

  private refusal(where: string, body: any): void {
    if (typeof body?.nome !== 'string' || typeof body?.mensagem !== 'string')
      this.invalid.push(`${where}: a refusal is {nome, mensagem}`);
  }

  private problem(where: string, body: any): void {
    if (typeof body?.type !== 'string' || typeof body?.title !== 'string' || body?.status !== 404)
      this.invalid.push(`${where}: a 404 is a problem {type, title, status, detail}`);
  }
}
