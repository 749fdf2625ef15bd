/**
 * The fake API Pix PSP the Workers tests reach through a declared `bcb-api-pix` partner. It runs in
 * Node (vitest.config.ts binds it as the partner's certificate fetcher, like an `mtls_certificates`
 * binding), keeps its books in memory (test/support/bcb-pix-conformance.ts) and validates every
 * exchange against the vendored bacen/pix-api document. Tests drive the PSP's side through
 * `/__control/…` on the same binding:
 *
 * - `POST /__control/pay {txid, endToEndId, valor?, horario?, pagador?}`: a payer pays the charge (another
 *   amount: a PSP bug; `pagador` `{nome, cpf | cnpj}`: a third party, else the charge's `devedor`).
 * - `POST /__control/receive {endToEndId, valor, txid?, horario?}`: a Pix with no charge of ours behind it.
 * - `POST /__control/alter-pix {endToEndId, valor?, forget?}`, `POST /__control/alter-payout
 *   {transactionId, status?, valor?, at?, forget?}`: the PSP's records change after the fact
 *   (reconciliation break injection).
 * - `POST /__control/receive-many {items: [{endToEndId, valor, txid?, horario?}]}`: many at once.
 * - `POST /__control/payer-in-callback-only {endToEndId}`: that payment's `gnExtras.pagador` is left out
 *   of `GET /pix`, `/pix/{e2eid}` and `/cob/{txid}`: only its callback carries it (as Efí documents it).
 * - `POST /__control/sent {idEnvio, valor, at}`: a payout the PSP made that we never asked for.
 * - `POST /__control/balance {saldo}`: what Efí's `GET /v2/gn/saldo` answers (null: back to the default,
 *   0.00 here, the PSP's own books in the local mock); `GET /__control/balance` reads it.
 * - `POST /__control/return {endToEndId, id, valor, natureza}`: the bank returns (part of) a payment.
 * - `POST /__control/infraction {endToEndId, valor, respondMs?}`: the payer's bank opens a MED infraction
 *   (Efí's `GET /v2/gn/infracoes` lists it); `POST /__control/infraction-decide {idInfracao, status}`:
 *   ACEITA, REJEITADA or CANCELADA_EFI; `GET /__control/infraction/<idInfracao>`: as Efí has it.
 * - `POST /__control/devolution {endToEndId, id, ok}`: the network settles or refuses a devolution.
 * - `POST /__control/callback {endToEndIds}`: the callback body the PSP would post (validated).
 * - `POST /__control/refuse-next-devolution {ms}`: the next devolution request is answered, after
 *   `ms`, with the standard's PixDevolucaoInvalida (a slow refusal other events can overtake).
 * - `POST /__control/hold-next-devolution`: the next devolution request waits, unanswered, until
 *   `POST /__control/release-devolution`, then is refused like the one above: other events overtake it
 *   on the test's word, not on a clock; `GET /__control/devolution-held` says whether one waits now.
 * - `POST /__control/payout {transactionId, ok, at?}`: the network settles (REALIZADO) or refuses
 *   (NAO_REALIZADO) the Cash-Out sent through the payout API (Efí Pix Send).
 * - `POST /__control/fail-next {match, status, name, times?}`: the next (`times`, default 1) API Pix
 *   requests whose path (query included) contains `match` are answered with that problem (other test files' requests
 *   pass untouched).
 * - `POST /__control/lose-next {method, match, times?}`: the next (`times`, default 1) requests of that
 *   method whose path contains `match` are acted on by the PSP, but their answer is lost (503 instead).
 * - `POST /__control/revoke-tokens`: every token issued so far stops working; a call with one is
 *   answered 403 AcessoNegado, the document's answer.
 * - `POST /__control/outage {match, ms}`: for the next `ms` (0 ends it), every request whose path
 *   contains `match` ('' for all, the token endpoint included) is answered 503 ServicoIndisponivel:
 *   the PSP is down for them.
 * - `POST /__control/slow {match, ms}`: until `{match, ms: 0}`, every GET whose path contains `match`
 *   is answered `ms` late (a read slower than the gateway waits for).
 * - Pix Automático: `POST /__control/rec-approve|rec-reject|rec-payer-cancel {idRec}` (the payer
 *   answers, or cancels in their bank); `POST /__control/cobr-pay|cobr-payer-cancel {txid}`,
 *   `POST /__control/cobr-fail {txid, final?}` (the payer's bank pays or fails the charge's attempt;
 *   `final`: it was the last); `POST /__control/rec-callback {idRecs}`, `/cobr-callback {txids}`:
 *   the `rec`/`cobr` callback bodies (validated); `GET /__control/rec/<idRec>`, `/cobr/<txid>`,
 *   `/recs` (every recurrence), `/cobrs-of/<idRec>` (a recurrence's charges),
 *   `/webhookrec` (where `PUT /webhookrec` and `/webhookcobr` pointed).
 * - `GET /__control/webhook/<chave>`: the webhook URL registered for a key.
 * - `GET /__control/cob/<txid>`: the charge as the PSP has it.
 * - `GET /__control/pix/<e2eid>`, `GET /__control/sent/<transactionId>` (the payout as Efí has it),
 *   `GET /__control/invalid` (every invalid exchange so far, both contracts).
 */
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { OpenApiValidator } from '../support/bcb-pix-conformance';
import { EfiContractValidator } from '../support/efi-contract';
import { FakeBcbPsp } from '../support/fake-bcb-psp';

export { fakePspEnvironment } from '../support/fake-psp-env';

export function fakePspFetcher(
  openapiPath: string,
  options: { balanceFollowsBooks?: boolean } = {},
): (request: Request) => Promise<Response> {
  const doc = yaml.load(readFileSync(openapiPath, 'utf8')) as ConstructorParameters<
    typeof OpenApiValidator
  >[0];
  const psp = new FakeBcbPsp();
  // The local mock (npm run mock:psp) is one bank with one account: its balance is its books'.
  if (options.balanceFollowsBooks) psp.payout.booksBalance = () => psp.booksBalance();
  let refuseNextDevolutionMs: number | undefined;
  let holdNextDevolution = false;
  let releaseHeld: (() => void) | undefined;
  let failNext: { match: string; status: number; name: string; times: number } | undefined;
  let loseNext: { method: string; match: string; times: number } | undefined;
  const outages = new Map<string, number>();
  const slowReads = new Map<string, number>();
  const validator = new OpenApiValidator(doc);
  const efi = new EfiContractValidator();
  const idEnvio = (transactionId: string) => String(transactionId).replace(/-/g, '');
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  const outage = () =>
    new Response(
      JSON.stringify({
        type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel',
        title: 'Serviço Indisponível',
        status: 503,
      }),
      { status: 503, headers: { 'content-type': 'application/problem+json' } },
    );
  async function control(path: string, request: Request): Promise<Response> {
    const body = request.method === 'POST' ? ((await request.json()) as Record<string, any>) : {};
    if (path === 'pay')
      return json(psp.pay(body.txid, body.endToEndId, body.valor, body.horario, body.pagador));
    if (path === 'receive') return json(psp.receive(body.endToEndId, body.valor, body.txid, body.horario));
    if (path === 'receive-many') {
      for (const p of body.items) psp.receive(p.endToEndId, p.valor, p.txid, p.horario);
      return json({ received: body.items.length });
    }
    if (path === 'sent') return json(psp.payout.inject(body.idEnvio, body.valor, body.at));
    if (path === 'alter-pix') return json(psp.alterPix(body.endToEndId, body));
    if (path === 'alter-payout') return json(psp.payout.alter(idEnvio(body.transactionId), body));
    if (path === 'balance') {
      if (request.method === 'POST') psp.payout.balance = body.saldo ?? undefined;
      return json({ saldo: psp.payout.saldo() });
    }
    if (path === 'slow') {
      if (body.ms > 0) slowReads.set(body.match, body.ms);
      else slowReads.delete(body.match);
      return json({});
    }
    if (path === 'outage') {
      if (body.ms > 0) outages.set(body.match, Date.now() + body.ms);
      else outages.delete(body.match);
      return json({});
    }
    if (path === 'infraction') return json(psp.med.open(body.endToEndId, body.valor, body.respondMs));
    if (path === 'infraction-decide') return json(psp.med.decide(body.idInfracao, body.status));
    if (path.startsWith('infraction/')) return json(psp.med.infractions.get(path.slice(11)) ?? null);
    if (path === 'return') return json(psp.bankReturn(body.endToEndId, body.id, body.valor, body.natureza));
    if (path === 'devolution') {
      psp.settleDevolution(body.endToEndId, body.id, body.ok);
      return json(psp.pix.get(body.endToEndId));
    }
    if (path === 'callback') {
      const callback = psp.callbackBody(body.endToEndIds);
      validator.callback(callback);
      return json(callback);
    }
    if (path === 'hold-next-devolution') {
      holdNextDevolution = true;
      return json({});
    }
    if (path === 'devolution-held') return json({ held: releaseHeld !== undefined });
    if (path === 'release-devolution') {
      const held = releaseHeld !== undefined;
      releaseHeld?.();
      return json({ released: held });
    }
    if (path === 'refuse-next-devolution') {
      refuseNextDevolutionMs = body.ms;
      return json({});
    }
    if (path === 'revoke-tokens') {
      psp.revokeTokens(403);
      return json({ tokensIssued: psp.tokensIssued });
    }
    if (path === 'fail-next') {
      failNext = { match: body.match, status: body.status, name: body.name, times: body.times ?? 1 };
      return json({});
    }
    if (path === 'lose-next') {
      loseNext = { method: body.method, match: body.match, times: body.times ?? 1 };
      return json({});
    }
    if (path === 'payer-in-callback-only') {
      psp.payerInCallbackOnly.add(body.endToEndId);
      return json({});
    }
    // Pix Automático: the payer and the payer's bank (test/support/fake-bcb-rec.ts).
    if (path === 'rec-approve') return json(psp.rec.approve(body.idRec));
    if (path === 'rec-reject') return json(psp.rec.reject(body.idRec));
    if (path === 'rec-payer-cancel') return json(psp.rec.payerCancels(body.idRec));
    if (path === 'cobr-pay') return json(psp.rec.payAttempt(body.txid));
    if (path === 'cobr-fail') return json(psp.rec.failAttempt(body.txid, body.final === true));
    if (path === 'cobr-payer-cancel') return json(psp.rec.payerCancelsCharge(body.txid));
    if (path === 'rec-callback') {
      const callback = psp.rec.recCallback(body.idRecs);
      validator.callback(callback, 'rec');
      return json(callback);
    }
    if (path === 'cobr-callback') {
      const callback = psp.rec.cobrCallback(body.txids);
      validator.callback(callback, 'cobr');
      return json(callback);
    }
    if (path === 'webhookrec') return json({ rec: psp.rec.webhookRec, cobr: psp.rec.webhookCobr });
    if (path === 'recs') return json([...psp.rec.recs.values()]);
    if (path.startsWith('cobrs-of/'))
      return json([...psp.rec.cobrs.values()].filter((c) => c.idRec === path.slice(9)));
    if (path.startsWith('rec/')) return json(psp.rec.recs.get(path.slice(4)) ?? null);
    if (path.startsWith('cobr/')) return json(psp.rec.cobrs.get(path.slice(5)) ?? null);
    if (path.startsWith('webhook/'))
      return json({ webhookUrl: psp.webhooks.get(decodeURIComponent(path.slice(8))) ?? null });
    if (path === 'payout') return json(psp.payout.settle(idEnvio(body.transactionId), body.ok, body.at));
    if (path.startsWith('pix/')) return json(psp.pix.get(path.slice(4)) ?? null);
    if (path.startsWith('cob/')) return json(psp.cobs.get(path.slice(4)) ?? null);
    if (path.startsWith('sent/')) return json(psp.payout.sent.get(idEnvio(path.slice(5))) ?? null);
    if (path === 'invalid')
      return json({
        invalid: [...validator.invalid, ...efi.invalid, ...psp.med.invalid],
        requests: validator.requests + efi.requests,
      });
    return new Response('no such control', { status: 404 });
  }
  return async (request) => {
    psp.now = Date.now(); // the PSP's clock is the tests' clock: payments fall inside charge windows
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__control/'))
      return control(url.pathname.slice('/__control/'.length), request);
    for (const [match, until] of outages) {
      if (until <= Date.now()) outages.delete(match);
      else if (url.pathname.includes(match)) return outage();
    }
    if (request.method === 'GET')
      for (const [match, ms] of slowReads)
        if (url.pathname.includes(match)) await new Promise((r) => setTimeout(r, ms));
    const sent = request.clone();
    if (
      refuseNextDevolutionMs !== undefined &&
      request.method === 'PUT' &&
      url.pathname.includes('/devolucao/')
    ) {
      await new Promise((r) => setTimeout(r, refuseNextDevolutionMs));
      refuseNextDevolutionMs = undefined;
      psp.failNext(400, 'PixDevolucaoInvalida');
    }
    if (holdNextDevolution && request.method === 'PUT' && url.pathname.includes('/devolucao/')) {
      holdNextDevolution = false;
      await new Promise<void>((release) => {
        releaseHeld = release;
      });
      releaseHeld = undefined;
      psp.failNext(400, 'PixDevolucaoInvalida');
    }
    if (failNext && (url.pathname + url.search).includes(failNext.match)) {
      psp.failNext(failNext.status, failNext.name);
      if (--failNext.times === 0) failNext = undefined;
    }
    const response = await psp.handle(request);
    // Efí's MED API is outside both vendored contracts: the fake checks its shape (fake-efi-med.ts).
    if (psp.med.handles(url.pathname)) return response;
    if (EfiContractValidator.covers(sent.url)) {
      await efi.exchange(sent, response.clone());
      return response;
    }
    await validator
      .exchange(sent, response.clone())
      .catch((e) => validator.invalid.push(`${sent.method} ${sent.url}: ${e}`));
    if (loseNext && request.method === loseNext.method && url.pathname.includes(loseNext.match)) {
      // The PSP acted; its answer never reaches the gateway (what a dropped connection leaves).
      if (--loseNext.times === 0) loseNext = undefined;
      return outage();
    }
    return response;
  };
}
