/**
 * The open-finance payment page (staging): `openFinanceData.paymentUrl` opens a page that plays
 * the payer's bank consent screen; authorizing pays the Cash-In through the same settlement path
 * as the network and sends the payer to the integrator's `redirectUrl`.
 */

import { ledgerOf } from '../../../durable-objects/stubs';
import { formatCents } from '../../domain/money';
import { chargeAt } from '../../http/charge-locator';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import type { ApiRequest } from '../../http/request-context';
import { requireStaging } from '../../http/staging';
import { isSimulatedPartner } from '../../partners/config';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#f3f5f9;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:2rem;max-width:26rem;width:100%}
h1{font-size:1.2rem;margin-top:0}.amount{font-size:2rem;font-weight:700;margin:.5rem 0 1rem}
button{font-size:1rem;padding:.7rem 1.2rem;border-radius:8px;border:0;cursor:pointer;margin-right:.5rem}
.ok{background:#0a7d38;color:#fff}.no{background:#e3e6ec}.muted{color:#667}</style></head>
<body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
    },
  });
}

const notFound = () => new ProblemError('NOT_FOUND', 'No payment at this address');

async function charge(request: ApiRequest, env: Env) {
  requireStaging(request, env);
  const located = await chargeAt(env, String(request.params.locator ?? ''));
  // A real partner's charge is paid at that bank, never on this simulated consent page.
  if (located?.found.flow !== 'OPEN_FINANCE' || !isSimulatedPartner(env, located.found.partnerIspb))
    throw notFound();
  return located;
}

export async function handleOpenFinancePage({ request, env }: Input): Promise<Response> {
  const { found } = await charge(request, env);
  const amount = `R$ ${formatCents(found.amountCents).replace('.', ',')}`;
  if (found.cashIn.status !== 'AWAITING_PAYMENT') {
    return page(
      'Pagamento indisponível',
      `<h1>Pagamento indisponível</h1><p class="muted">Esta cobrança está ${escapeHtml(found.cashIn.status)}.</p>`,
      410,
    );
  }
  const action = new URL(request.url).pathname;
  return page(
    'Autorizar pagamento',
    `<p class="muted">Banco do pagador · ambiente de testes</p>
<h1>Autorizar pagamento para ${escapeHtml(found.merchantName)}</h1>
<div class="amount" id="amount">${escapeHtml(amount)}</div>
<p>Pagador: ${escapeHtml(found.cashIn.payer.name)}</p>
<form method="post" action="${escapeHtml(action)}/authorize"><button class="ok" id="authorize" type="submit">Autorizar</button>
<button class="no" id="decline" type="submit" formaction="${escapeHtml(action)}/decline">Cancelar</button></form>`,
  );
}

export async function handleOpenFinanceAuthorize({ request, env }: Input): Promise<Response> {
  const { locator, found } = await charge(request, env);
  const result = await ledgerOf(env, locator.clientId).settleCashIn({
    id: locator.internalCode,
    source: 'sandbox',
  });
  if (!result.ok && result.problem.code === 'CASHIN_NOT_FOUND') throw notFound();
  if (!result.ok) {
    return page(
      'Pagamento não realizado',
      `<h1>Pagamento não realizado</h1><p>${escapeHtml(result.problem.detail ?? '')}</p>`,
      422,
    );
  }
  const target = new URL(found.redirectUrl ?? '/', request.url);
  target.searchParams.set('transactionId', found.cashIn.transactionId);
  target.searchParams.set('status', result.body.status);
  return new Response(null, { status: 303, headers: { location: target.toString() } });
}

export async function handleOpenFinanceDecline({ request, env }: Input): Promise<Response> {
  const { found } = await charge(request, env);
  const target = new URL(found.redirectUrl ?? '/', request.url);
  target.searchParams.set('transactionId', found.cashIn.transactionId);
  target.searchParams.set('status', 'DECLINED');
  return new Response(null, { status: 303, headers: { location: target.toString() } });
}
