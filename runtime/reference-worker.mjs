// Reference worker of the benchmark, served beside the gateway in the same workerd by
// `node scripts/serve.mjs --hello-port <port>`:
//   GET /    hello world: the ceiling of this runtime on this machine;
//   GET /log       hello world plus one JSON log line shaped like the gateway's request line
//                  (src/index.ts): what the per-request log line costs on its own;
//   GET /do-rpc    one Durable Object RPC that touches no storage: the cost of the hop alone;
//   GET /do        one Durable Object RPC that reads one row from SQLite: the floor of any request
//                  that reads a Durable Object, before authentication, routing, validation or logging;
//   GET /do-write  the same RPC inserting one row instead (a durable write): the floor of a request
//                  that changes a Durable Object.
//   GET /ledger/<op>?client=<clientId>&key=<its location key>  the object twin: the gateway's own
//                  ClientLedger RPC, called with the command the gateway's handler would prepare (no routing, auth, body,
//                  validation, signature, response rendering or log line). Its CPU minus /do-rpc's
//                  is the object's own cost per operation (bench/run.mjs). Ops: cash-in, cash-out,
//                  cash-out-batch (&n=100 items), refund (&id=<paid Cash-In>), and paid (&n=: creates
//                  and pays n Cash-Ins, answering their ids: the refund scenarios' supply).
import { DurableObject } from 'cloudflare:workers';

export class Reference extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, v TEXT)');
    ctx.storage.sql.exec("INSERT OR REPLACE INTO t VALUES ('a', 'hello')");
  }

  read(id) {
    return this.ctx.storage.sql.exec('SELECT * FROM t WHERE id = ?', id).one();
  }

  ping() {
    return { ok: true };
  }

  write() {
    this.ctx.storage.sql.exec('INSERT INTO t VALUES (?, ?)', crypto.randomUUID(), 'hello');
    return { ok: true };
  }
}

const PAYER = { name: 'Maria da Silva', document: '12345678909' };
let sequence = 0;
const reference = (prefix) => `${prefix}-${crypto.randomUUID().slice(0, 8)}-${++sequence}`;

/** As the gateway's handler prepares it; `key` is the client's location key (&key=). */
const cashInCommand = (key) => ({
  requestHash: '',
  amountCents: 15_025,
  externalReference: reference('twin-in'),
  expirationInMinutes: 60,
  payer: PAYER,
  locationPrefix: `127.0.0.1/pix/qr/${key}`,
  paymentUrlPrefix: `http://127.0.0.1/open-finance/${key}`,
  locationKey: key,
});

const cashOutItem = () => ({
  amountCents: 1_000 + (++sequence % 1_000),
  externalReference: reference('twin-out'),
  payee: {
    name: 'João Souza',
    document: '12345678909',
    destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
  },
});

/** The object twin's operations: one RPC each, as the gateway's handler calls it. */
const LEDGER_OPS = {
  'cash-in': (ledger, _c, params) => ledger.createCashIn(cashInCommand(params.get('key'))),
  'cash-out': (ledger) => ledger.createCashOut({ requestHash: '', ...cashOutItem() }),
  'cash-out-batch': (ledger, _c, params) =>
    ledger.createCashOutBatch({
      requestHash: '',
      items: Array.from({ length: Number(params.get('n') ?? 100) }, cashOutItem),
    }),
  refund: (ledger, _c, params) =>
    ledger.refundCashIn({
      requestHash: '',
      id: params.get('id'),
      reason: 'CUSTOMER_REQUEST',
      description: null,
    }),
  paid: async (ledger, _c, params) => {
    const ids = [];
    for (let i = 0; i < Number(params.get('n') ?? 100); i++) {
      const created = await ledger.createCashIn(cashInCommand(params.get('key')));
      if (!created.ok) throw new Error(`twin Cash-In refused: ${JSON.stringify(created.problem)}`);
      const paid = await ledger.settleCashIn({ id: created.body.transactionId, source: 'sandbox' });
      if (paid.ok) ids.push(created.body.transactionId);
    }
    return { ok: true, status: 200, body: ids };
  },
};

async function ledgerTwin(url, env) {
  const op = LEDGER_OPS[url.pathname.slice('/ledger/'.length)];
  const clientId = url.searchParams.get('client');
  if (!op || !clientId || !env.LEDGER) return new Response('unknown ledger op', { status: 404 });
  const result = await op(env.LEDGER.getByName(clientId), clientId, url.searchParams);
  return result.ok
    ? Response.json(result.body, { status: result.status })
    : Response.json(result.problem, { status: 409 });
}

export default {
  async fetch(request, env) {
    if (request.url.includes('/ledger/')) return ledgerTwin(new URL(request.url), env);
    if (request.url.endsWith('/do')) return Response.json(await env.REFERENCE.getByName('bench').read('a'));
    if (request.url.endsWith('/do-rpc')) return Response.json(await env.REFERENCE.getByName('bench').ping());
    if (request.url.endsWith('/log')) {
      const started = Date.now();
      console.log(
        JSON.stringify({
          level: 'info',
          message: 'request',
          time: new Date().toISOString(),
          requestId: crypto.randomUUID(),
          method: request.method,
          path: new URL(request.url).pathname,
          status: 200,
          durationMs: Date.now() - started,
        }),
      );
      return new Response('Hello World!');
    }
    if (request.url.endsWith('/do-write'))
      return Response.json(await env.REFERENCE.getByName('bench').write());
    return new Response('Hello World!');
  },
};
