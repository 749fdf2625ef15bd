/**
 * Conformance against the vendored API Pix document (test/fixtures/bcb-pix-api/openapi.yaml):
 * a validator of every request and response against the document, a local fake PSP, and a driver
 * that runs the BCB adapter through every operation it uses. Shared by `npm run partner:conformance`
 * and test/partners/bcb-api-pix-conformance.test.ts.
 */
import { Validator } from '@cfworker/json-schema';
import { returnIdOf } from '../../src/domain/unapplied';
import { BcbApiPixPartner, type ReceivedPix } from '../../src/partners/bcb-api-pix/adapter';
import { centsToDecimal } from '../../src/partners/bcb-api-pix/money';
import { runRecurrenceConformance } from './bcb-rec-conformance';
import { BASE, FakeBcbPsp, TOKEN_URL } from './fake-bcb-psp';

export { BASE, FakeBcbPsp, TOKEN_URL };

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, any> };

/**
 * The document writes some patterns as JavaScript regex literals, slashes included: `/^\d{11}$/`
 * for every CPF (2.9.0 still; its CNPJ became `^[0-9A-Z]{14}$`). Read literally as a JSON Schema
 * pattern, no string matches it, not even the document's own examples (`"cpf": "12345678909"`), so
 * a literal validator refuses every CPF `devedor`. The validator reads such a pattern as the regex
 * between the slashes, the document's evident intent, and reports each one it rewrote (`quirks`).
 */
function readPatternsByIntent(node: unknown, quirks: Map<string, number>): void {
  if (Array.isArray(node)) for (const item of node) readPatternsByIntent(item, quirks);
  else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    const pattern = record.pattern;
    if (typeof pattern === 'string' && /^\/.+\/$/.test(pattern)) {
      record.pattern = pattern.slice(1, -1);
      quirks.set(pattern, (quirks.get(pattern) ?? 0) + 1);
    }
    for (const value of Object.values(record)) readPatternsByIntent(value, quirks);
  }
}

/**
 * Schemas of the Pix Automático half that no value satisfies as written; each is read by its
 * evident intent and reported (`npm run partner:conformance` prints them):
 * - a required name the schema never defines: `RecBase` requires `idRec` (the PSP's id, absent
 *   from the document's request examples recBody1/2) and `retentativa` (the field is
 *   `politicaRetentativa`); `SolicRecSolicitada` requires `pagador` (its payer is `destinatario`);
 *   `SolicRecCompleta` requires `rec` (it carries `recPayload`); `RecNotification` requires
 *   `atualizacao"` (a stray quote); `PayloadLocationRecGerada` requires `tipo` (none defined);
 *   `DadosPagadorRec` requires `ispbParticipante` beside `pagador`, which defines it inside;
 * - `encerramento`'s `oneOf` a rejection or a cancellation names each branch's property without
 *   requiring it, so every object matches both: each branch requires its one property;
 * - `PixAutomatico.valor` is a string whose `anyOf` lists the object components of the Pix's value.
 */
const UNDEFINED_REQUIRED: Readonly<Record<string, readonly string[]>> = {
  RecBase: ['idRec', 'retentativa'],
  SolicRecSolicitada: ['pagador'],
  SolicRecCompleta: ['rec'],
  RecNotification: ['atualizacao"'],
  PayloadLocationRecGerada: ['tipo'],
  DadosPagadorRec: ['ispbParticipante'],
};

function readRecurrenceSchemasByIntent(doc: Doc, quirks: Map<string, number>): void {
  const note = (what: string) => quirks.set(what, (quirks.get(what) ?? 0) + 1);
  const deref = (node: any): any => {
    while (node?.$ref)
      node = node.$ref
        .slice(2)
        .split('/')
        .reduce((n: any, k: string) => n?.[k], doc);
    return node;
  };
  const defined = (node: any, depth = 0): Set<string> => {
    const n = deref(node);
    const names = new Set<string>(Object.keys(n?.properties ?? {}));
    if (depth < 8)
      for (const key of ['allOf', 'oneOf', 'anyOf'])
        for (const branch of n?.[key] ?? []) for (const name of defined(branch, depth + 1)) names.add(name);
    return names;
  };
  for (const [name, missing] of Object.entries(UNDEFINED_REQUIRED)) {
    const schema = doc.components.schemas[name];
    const names = defined(schema);
    for (const node of [schema, ...(schema?.allOf ?? []).map(deref)])
      if (Array.isArray(node?.required))
        node.required = node.required.filter((r: string) => {
          const drop = missing.includes(r) && !names.has(r);
          if (drop) note(`${name} requires "${r}", which it never defines`);
          return !drop;
        });
  }
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    const record = node as Record<string, any>;
    if (Array.isArray(record.oneOf))
      for (const branch of record.oneOf) {
        const names = Object.keys(branch?.properties ?? {});
        if (names.length === 1 && branch.required === undefined && !branch.$ref) {
          branch.required = names;
          note(`oneOf branch "${names[0]}" requires its one property`);
        }
      }
    if (record.type === 'string' && Array.isArray(record.anyOf)) {
      delete record.anyOf;
      note('a string with an anyOf of objects is read as the string');
    }
    for (const value of Object.values(record)) walk(value);
  };
  walk(doc.components);
}

export class OpenApiValidator {
  readonly invalid: string[] = [];
  requests = 0;
  readonly operations = new Set<string>();
  /** Regex-literal patterns read by intent (readPatternsByIntent): pattern → how many places. */
  readonly quirks = new Map<string, number>();
  /** Pix Automático schemas read by intent (readRecurrenceSchemasByIntent): what → how many places. */
  readonly requiredQuirks = new Map<string, number>();
  private readonly cache = new Map<string, Validator>();
  private readonly doc: Doc;
  constructor(doc: Doc) {
    this.doc = structuredClone(doc);
    readPatternsByIntent(this.doc, this.quirks);
    readRecurrenceSchemasByIntent(this.doc, this.requiredQuirks);
  }

  private deref(node: any): any {
    while (node?.$ref)
      node = node.$ref
        .slice(2)
        .split('/')
        .reduce((n: any, k: string) => n[k], this.doc);
    return node;
  }
  private check(where: string, schema: any, value: unknown): void {
    const key = JSON.stringify(schema);
    let v = this.cache.get(key);
    if (!v) {
      v = new Validator(
        { ...schema, components: { schemas: this.doc.components.schemas } },
        '2019-09',
        false,
      );
      this.cache.set(key, v);
    }
    const result = v.validate(value);
    if (!result.valid)
      this.invalid.push(
        `${where}: ${result.errors
          .map((e) => e.error)
          .slice(-3)
          .join('; ')}`,
      );
  }
  private match(
    method: string,
    path: string,
  ): { tpl: string; op: any; params: Record<string, string> } | undefined {
    for (const tpl of Object.keys(this.doc.paths)) {
      const names: string[] = [];
      const re = new RegExp(
        `^${tpl.replace(/\{(\w+)\}/g, (_, n) => {
          names.push(n);
          return '([^/]+)';
        })}$`,
      );
      const m = re.exec(path);
      const op = m && this.doc.paths[tpl]?.[method.toLowerCase()];
      // An operation with its own `servers` (a location's payload) is served elsewhere, not by the API.
      if (m && op && !op.servers)
        return {
          tpl,
          op,
          params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')])),
        };
    }
    return undefined;
  }

  /**
   * Validates a callback body the PSP posts to `{webhookUrl}/pix` (requestBodies.WebhookPixBody),
   * `/rec` (WebhookRecBody) or `/cobr` (WebhookCobRBody).
   */
  callback(body: unknown, kind: 'pix' | 'rec' | 'cobr' = 'pix'): void {
    const name = { pix: 'WebhookPixBody', rec: 'WebhookRecBody', cobr: 'WebhookCobRBody' }[kind];
    this.callbacks.add(kind);
    const schema = this.doc.components.requestBodies[name].content['application/json'].schema;
    this.check(`POST {webhookUrl}/${kind} callback`, schema, body);
  }
  /** The callbacks validated so far. */
  readonly callbacks = new Set<string>();

  /** Validates one exchange; the token endpoint (securitySchemes.OAuth2.tokenUrl) has no schema. */
  async exchange(request: Request, response: Response): Promise<void> {
    this.requests++;
    const url = new URL(request.url);
    if (request.url.startsWith(TOKEN_URL)) return;
    const path = url.pathname.slice(new URL(BASE).pathname.length);
    const found = this.match(request.method, path);
    const where = `${request.method} ${path}`;
    if (!found) return void this.invalid.push(`${where}: no such operation in the document`);
    this.operations.add(`${request.method} ${found.tpl}`);
    const declared = [...(this.doc.paths[found.tpl]?.parameters ?? []), ...(found.op.parameters ?? [])].map(
      (p) => this.deref(p),
    );
    for (const p of declared) {
      const raw =
        p.in === 'path' ? found.params[p.name] : p.in === 'query' ? url.searchParams.get(p.name) : null;
      if (raw == null) {
        if (p.required) this.invalid.push(`${where}: missing ${p.in} parameter ${p.name}`);
      } else if (p.schema) {
        // On the wire every parameter is text: a numeric one is checked as the number it spells.
        const numeric = ['integer', 'number'].includes(p.schema.type) && /^-?\d+(\.\d+)?$/.test(raw);
        this.check(`${where} ${p.name}`, p.schema, numeric ? Number(raw) : raw);
      }
    }
    const rb = this.deref(found.op.requestBody);
    if (rb) {
      const text = await request.clone().text();
      this.check(`${where} request`, rb.content['application/json'].schema, JSON.parse(text || 'null'));
    }
    const declaredResponse = this.deref(found.op.responses[String(response.status)]);
    if (!declaredResponse) return void this.invalid.push(`${where}: undeclared status ${response.status}`);
    const content = declaredResponse.content ?? {};
    if (Object.keys(content).length === 0) {
      if ((await response.clone().text()) !== '')
        this.invalid.push(`${where} ${response.status}: body where none is declared`);
      return;
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0] ?? '';
    const media = content[type];
    if (!media) return void this.invalid.push(`${where} ${response.status}: undeclared media type ${type}`);
    if (media.schema) this.check(`${where} ${response.status}`, media.schema, await response.clone().json());
  }
}

export interface ConformanceResult {
  /** Regex-literal patterns of the document read by intent (readPatternsByIntent). */
  quirks?: string[];
  /** Pix Automático schemas read by intent (readRecurrenceSchemasByIntent). */
  requiredQuirks?: string[];
  /** The callback bodies validated (`pix`, `rec`, `cobr`). */
  callbacks?: string[];
  operations: number;
  requests: number;
  invalid: string[];
  failures: string[];
}

/** Runs the adapter through charge, query, received Pix, refund, webhook, error answers, token expiry. */
export async function runConformance(doc: Doc): Promise<ConformanceResult> {
  const psp = new FakeBcbPsp();
  const validator = new OpenApiValidator(doc);
  const failures: string[] = [];
  const expect = (what: string, ok: boolean) => ok || failures.push(what);
  const fetcher = async (request: Request) => {
    const sent = request.clone();
    const response = await psp.handle(request);
    await validator
      .exchange(sent, response.clone())
      .catch((e) => validator.invalid.push(`${sent.method} ${sent.url}: ${e}`));
    return response;
  };
  const partner = new BcbApiPixPartner({
    ispb: '09089356',
    pixKey: 'cobranca@connectpsp.example',
    baseUrl: BASE,
    tokenUrl: TOKEN_URL,
    clientId: 'client',
    clientSecret: 'secret',
    fetcher,
    now: () => psp.now,
    attempts: 3,
    pixAutomatico: { account: '1234567', accountType: 'PAGAMENTO', branch: '0001' },
  });
  const txid = 'CPSPtx0000000000000000000000001';
  const charge = await partner.registerCharge({
    txid,
    amountCents: 12_345,
    expiresAt: Date.now() + 3_600_000,
  });
  expect('charge registered', charge.ok);
  expect('charge amount exact', psp.cobs.get(txid)?.valor.original === centsToDecimal(12_345));
  const again = await partner.registerCharge({
    txid,
    amountCents: 12_345,
    expiresAt: Date.now() + 3_600_000,
  });
  expect('charge retried under the same txid', again.ok && psp.cobs.size === 1);
  const cob = psp.cobs.get(txid);
  expect(
    "the PSP's BR Code and location are handed back",
    charge.ok &&
      charge.value.brCode?.copyAndPaste === cob?.pixCopiaECola &&
      charge.value.brCode?.location === cob?.location,
  );
  // The payer as devedor: a CPF (the document's regex-literal pattern, read by intent) and an
  // alphanumeric CNPJ (2.9.0's pattern).
  for (const [i, payer] of [
    { name: 'Maria da Silva', document: '12345678909' },
    { name: 'Nova Ltda', document: '12ABC34501DE35' },
  ].entries()) {
    const id = `CPSPtx000000000000000000000010${i}`;
    const named = await partner.registerCharge({
      txid: id,
      amountCents: 1_000,
      expiresAt: Date.now() + 3_600_000,
      payer,
    });
    const devedor = psp.cobs.get(id)?.devedor;
    expect(
      `devedor ${payer.document} sent`,
      named.ok &&
        devedor?.nome === payer.name &&
        (devedor?.cpf ?? devedor?.cnpj) === payer.document &&
        (payer.document.length === 11) === (devedor?.cpf !== undefined),
    );
  }
  const gone = 'CPSPtx0000000000000000000000003';
  await partner.registerCharge({ txid: gone, amountCents: 500, expiresAt: Date.now() + 3_600_000 });
  expect('charge removed', (await partner.removeCharge(gone)).ok);
  expect('a removed charge cannot be paid', psp.pay(gone, 'E09089356202611251200removed0001') === null);
  const e2e = 'E09089356202611251200abcdefghijk';
  psp.pay(txid, e2e);
  const paidGone = await partner.removeCharge(txid);
  expect('a paid charge is not removed', !paidGone.ok && !paidGone.retryable);
  const status = await partner.chargeStatus(txid);
  expect(
    'charge CONCLUIDA with its pix',
    status.ok && status.value.status === 'CONCLUIDA' && status.value.pix.length === 1,
  );
  const pix = await partner.receivedPix(e2e);
  expect('received pix re-read', pix.ok && (pix.value as ReceivedPix).amountCents === 12_345);
  const list = await partner.receivedPixPage(new Date(psp.now - 60_000), new Date(psp.now + 60_000), 0);
  expect('received pix listed', list.ok && list.value.pix.length === 1 && list.value.pages === 1);
  const beyond = await partner.receivedPixPage(new Date(psp.now - 60_000), new Date(psp.now + 60_000), 1);
  expect('a page past the end is empty', beyond.ok && beyond.value.pix.length === 0);
  const wide = await partner.receivedPixPage(new Date(psp.now - 60_000), new Date(psp.now + 60_000), 0, 1000);
  expect('received pix listed 1,000 a page (daily reconciliation)', wide.ok && wide.value.pix.length === 1);
  // An unapplied receipt's return: its id is derived from the payment (src/domain/unapplied.ts).
  const returnId = await returnIdOf('09089356', e2e, psp.now);
  const back = await partner.sendDevolution({
    endToEndId: returnId,
    originalEndToEndId: e2e,
    amountCents: 1_000,
  });
  expect('a return under the derived id is accepted', back.ok);
  const devId = 'D09089356202611251201abcdefghijk';
  const dev = await partner.sendDevolution({
    endToEndId: devId,
    originalEndToEndId: e2e,
    amountCents: 2_345,
  });
  expect('devolution accepted', dev.ok);
  expect('devolution pending', (await partner.devolutionStatus(e2e, devId)).state === 'PENDING');
  psp.settleDevolution(e2e, devId, true);
  const settledDevolution = await partner.devolutionStatus(e2e, devId);
  expect(
    "devolution settled under the PSP's rtrId",
    settledDevolution.state === 'SETTLED' &&
      settledDevolution.endToEndId === psp.pix.get(e2e)?.devolucoes.find((d: any) => d.id === devId)?.rtrId &&
      settledDevolution.endToEndId !== devId,
  );
  const over = await partner.sendDevolution({
    endToEndId: 'D09089356202611251202abcdefghijk',
    originalEndToEndId: e2e,
    amountCents: 20_000,
  });
  expect(
    'devolution above remaining refused',
    !over.ok && over.failureCode === 'PAYEE_BANK_REJECTED' && !over.retryable,
  );
  validator.callback(psp.callbackBody([e2e]));
  expect(
    'webhook registered',
    (await partner.registerWebhook('https://gw.example/partners/09089356/webhook')).ok,
  );
  expect(
    'Pix Automático callbacks registered to the same base',
    psp.rec.webhookRec === 'https://gw.example/partners/09089356/webhook' &&
      psp.rec.webhookCobr === 'https://gw.example/partners/09089356/webhook',
  );
  await runRecurrenceConformance(partner, psp, validator, expect);
  psp.failNext(503, 'ServicoIndisponivel');
  const retried = await partner.chargeStatus(txid);
  expect('503 retried then answered', retried.ok);
  for (let i = 0; i < 3; i++) psp.failNext(503, 'ServicoIndisponivel');
  const down = await partner.registerCharge({
    txid: 'CPSPtx0000000000000000000000002',
    amountCents: 100,
    expiresAt: Date.now() + 60_000,
  });
  expect(
    '503 three times: retryable PROVIDER_UNAVAILABLE',
    !down.ok && down.failureCode === 'PROVIDER_UNAVAILABLE' && down.retryable,
  );
  const missing = await partner.chargeStatus('CPSPtx0000000000000000000000404');
  expect('404 mapped', !missing.ok && missing.failureCode === 'PROCESSING_ERROR');
  const before = psp.tokensIssued;
  psp.now += 3_600_000 - 30_000; // inside the refresh margin: the adapter asks for a new token first
  expect(
    'token refreshed before expiry',
    (await partner.receivedPix(e2e)).ok && psp.tokensIssued === before + 1,
  );
  const beforeRevocation = psp.tokensIssued;
  psp.revokeTokens(403); // the document's answer to a token that no longer works: AcessoNegado
  expect(
    'a revoked token (403 AcessoNegado) is replaced once and the call answered',
    (await partner.receivedPix(e2e)).ok && psp.tokensIssued === beforeRevocation + 1,
  );
  return {
    quirks: [...validator.quirks].map(([pattern, places]) => `${pattern} (${places} places)`),
    requiredQuirks: [...validator.requiredQuirks].map(([name, places]) => `${name} (${places} places)`),
    callbacks: [...validator.callbacks],
    operations: validator.operations.size,
    requests: validator.requests,
    invalid: validator.invalid,
    failures,
  };
}
