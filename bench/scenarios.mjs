// The benchmark's scenarios (bench/run.mjs, bench/profile.mjs): one onboarded client, funded,
// with Cash-Ins to read, and the autocannon request definitions of each hot path.
import { createHmac, randomUUID } from 'node:crypto';

/** The `@history` client's past: Cash-In + Cash-Out pairs this month, Cash-Outs to so many payees. */
const HISTORY_PAIRS = Number(process.env.BENCH_HISTORY_PAIRS || 500_000);
const HISTORY_PAYEES = 3000;
const SEED_CHUNK = 20_000;

/**
 * Onboards a client on `base` and returns the scenarios, in the order they are measured.
 * `hello`: the hello-world ceiling's URL (omitted: no ceiling scenario). `history`: also a second
 * client seeded with a month of history (POST /__bench/seed-history, which needs BENCH_SEED=on) and
 * the `@history` twins of cash-in, get-by-id, list and cash-out against it.
 */
export async function prepareScenarios({ base, hello, adminToken = 'dev-admin-token', history = false }) {
  async function api(method, url, { headers = {}, body } = {}) {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  const admin = { authorization: `Bearer ${adminToken}` };
  /** Onboards a client with limits high enough that every Cash-Out of the run is accepted. */
  async function onboard({ fund = true } = {}) {
    const onboarded = await api('POST', '/admin/clients', {
      headers: admin,
      body: { name: 'Loja Benchmark Ltda' },
    });
    if (onboarded.status !== 201)
      throw new Error(`onboarding: ${onboarded.status} ${JSON.stringify(onboarded.body)}`);
    const client = onboarded.body;
    await api('PATCH', `/admin/clients/${client.clientId}`, {
      headers: admin,
      body: { limits: { perTransaction: 1_000_000, daily: 1e11, monthly: 1e12, perPayeeDaily: 1_000_000 } },
    });
    const login = await api('POST', '/auth/token', {
      body: { clientId: client.clientId, clientSecret: client.clientSecret },
    });
    const token = login.body.accessToken;
    const auth = {
      authorization: `Bearer ${token}`,
      applicationtoken: client.applicationToken,
      'content-type': 'application/json',
    };
    const signed = {
      ...auth,
      digitalsignature: createHmac('sha256', client.cryptoToken).update(token).digest('hex'),
    };
    const transactional = client.accounts.find((a) => a.type === 'TRANSACTIONAL');
    const deposit = () =>
      api('POST', `/sandbox/accounts/${transactional.number}/deposit`, {
        headers: auth,
        body: { amount: 1_000_000_000 },
      });
    if (fund) await deposit();
    return { client, auth, signed, deposit };
  }
  const { client, auth, signed } = await onboard();

  const run = randomUUID().slice(0, 8);
  let sequence = 0;
  const cashInBody = (includeQrCodeImage = true) =>
    JSON.stringify({
      amount: 150.25,
      externalReference: `bench-${run}-${++sequence}`,
      payer: { name: 'Maria da Silva', document: '12345678909' },
      includeQrCodeImage,
    });
  async function createCashIns(headers) {
    const ids = [];
    for (let i = 0; i < 100; i++) {
      const created = await api('POST', '/cash-in', { headers, body: JSON.parse(cashInBody()) });
      if (created.status !== 201)
        throw new Error(`seeding: ${created.status} ${JSON.stringify(created.body)}`);
      ids.push(created.body.transactionId);
    }
    return ids;
  }
  const ids = await createCashIns(auth);
  const today = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 21 * 3600_000).toISOString().slice(0, 10);
  const cashOutBody = () =>
    JSON.stringify({
      amount: (1000 + (++sequence % 1000)) / 100,
      externalReference: `bench-out-${run}-${sequence}`,
      payee: {
        name: 'João Souza',
        document: '12345678909',
        destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: randomUUID() },
      },
    });

  /**
   * The `@history` client: HISTORY_PAIRS paid Cash-Ins and COMPLETED Cash-Outs (to HISTORY_PAYEES
   * payees) spread over this BRT month until 10 minutes ago, copied from a real pair of the first
   * client, then funded and given its own 100 Cash-Ins to read.
   */
  async function historyClient() {
    const cashIn = await api('POST', '/cash-in', { headers: auth, body: JSON.parse(cashInBody()) });
    const paid = await api('POST', `/sandbox/cash-in/${cashIn.body.transactionId}/pay`, {
      headers: auth,
      body: {},
    });
    if (paid.body?.status !== 'PAID') throw new Error(`template Cash-In: ${JSON.stringify(paid.body)}`);
    const out = await api('POST', '/cash-out', { headers: signed, body: JSON.parse(cashOutBody()) });
    for (let i = 0; ; i++) {
      const got = await api('GET', `/cash-out/${out.body.transactionId}`, { headers: auth });
      if (got.body?.status === 'COMPLETED') break;
      if (i > 300) throw new Error(`template Cash-Out: ${JSON.stringify(got.body)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const h = await onboard({ fund: false });
    const monthStart = Date.parse(`${today.slice(0, 7)}-01T00:00:00-03:00`);
    const stepMs = Math.max(0, Math.floor((Date.now() - 600_000 - monthStart) / HISTORY_PAIRS));
    const started = Date.now();
    for (let offset = 0; offset < HISTORY_PAIRS; offset += SEED_CHUNK) {
      const seeded = await api('POST', '/__bench/seed-history', {
        headers: admin,
        body: {
          templateClientId: client.clientId,
          cashInId: cashIn.body.transactionId,
          cashOutId: out.body.transactionId,
          clientId: h.client.clientId,
          offset,
          count: Math.min(SEED_CHUNK, HISTORY_PAIRS - offset),
          from: monthStart,
          stepMs,
          payees: HISTORY_PAYEES,
        },
      });
      if (seeded.status !== 204)
        throw new Error(`seeding history: ${seeded.status} ${JSON.stringify(seeded.body)}`);
    }
    const seedSeconds = (Date.now() - started) / 1000;
    await h.deposit();
    return { ...h, ids: await createCashIns(h.auth), seedSeconds };
  }
  const old = history ? await historyClient() : undefined;
  if (old)
    console.log(
      `Seeded ${2 * HISTORY_PAIRS} transactions this month (${HISTORY_PAIRS} Cash-Outs to ${HISTORY_PAYEES} payees) in ${old.seedSeconds.toFixed(1)} s`,
    );

  const cashInScenario = (key, name, headers) => ({
    key,
    name,
    requests: [
      { method: 'POST', path: '/cash-in', headers, setupRequest: (req) => ({ ...req, body: cashInBody() }) },
    ],
  });
  const getByIdScenario = (key, name, headers, list) => ({
    key,
    name,
    requests: [
      {
        method: 'GET',
        headers,
        setupRequest: (req) => ({ ...req, path: `/cash-in/${list[++sequence % list.length]}` }),
      },
    ],
  });
  const listScenario = (key, name, headers) => ({
    key,
    name,
    // Newest first: both clients' pages are then their latest Cash-Ins, awaiting payment, so the
    // twin compares the same work (ascending, the history client's page would be seeded PAID ones).
    requests: [{ method: 'GET', path: `/cash-in?from=${today}&to=${tomorrow}&limit=50&order=desc`, headers }],
  });
  /**
   * Signed Cash-Outs, each executed to COMPLETED after its 202: `before`/`verify` (bench/run.mjs)
   * read the day's summary around the run, so the report says how many of the accepted ones
   * completed and how many ended otherwise or are still open. `request`: another way to create them
   * (a batch, the object twin) whose Cash-Outs land in the same client's summary; `items` per request.
   */
  const cashOutScenario = (key, name, headers, request, items = 1) => {
    const totals = async () =>
      (await api('GET', `/cash-out/summary?from=${today}&to=${tomorrow}`, { headers: twinAuth(headers) }))
        .body.totals;
    const count = (t, pick) =>
      Object.entries(t).reduce((n, [bucket, b]) => n + (pick(bucket) ? b.count : 0), 0);
    let before;
    return {
      key,
      name,
      items,
      // 50 batches of 100 in flight would be 5,000 Cash-Outs queued in one object: a few suffice.
      ...(items > 1 && { connections: 4 }),
      untilIdle: true,
      requests: [
        request ?? {
          method: 'POST',
          path: '/cash-out',
          headers,
          setupRequest: (req) => ({ ...req, body: cashOutBody() }),
        },
      ],
      before: async () => {
        before = await totals();
        return false; // nothing left behind to wait for
      },
      verify: async () => {
        const after = await totals();
        const completed = (b) => b === 'completed';
        return {
          completed: count(after, completed) - count(before, completed),
          other: count(after, (b) => !completed(b)) - count(before, (b) => !completed(b)),
        };
      },
    };
  };
  /** A scenario, then its `@history` twin (same requests, the seeded client) when there is one. */
  const withTwin = (make, key, name, ...rest) => [
    make(key, name, ...rest),
    ...(old ? [make(`${key}@history`, `${name} @history`, ...rest.map((a) => twinArg(a)))] : []),
  ];
  const twinArg = (a) => (a === auth ? old.auth : a === signed ? old.signed : a === ids ? old.ids : a);
  /** The plain auth headers of whichever client `headers` (signed or not) belong to. */
  const twinAuth = (headers) =>
    headers === signed ? auth : old && headers === old.signed ? old.auth : headers;

  // ── Batches, refunds and the object twin (runtime/reference-worker.mjs, /ledger/<op>) ──────

  /** Items per POST /cash-out/batch in the batch scenarios. */
  const BATCH = 100;
  const batchBody = () =>
    JSON.stringify({ items: Array.from({ length: BATCH }, () => JSON.parse(cashOutBody())) });
  const batchRequest = (headers) => ({
    method: 'POST',
    path: '/cash-out/batch',
    headers,
    setupRequest: (req) => ({ ...req, body: batchBody() }),
  });
  // The client's location key begins every TxId it issues (src/domain/ids.ts): the twin's Cash-Ins
  // carry it as the gateway's handler passes it from the client's credentials.
  const locationKey = ids[0].slice(0, 22);
  const ledgerPath = (op, extra = '') => `/ledger/${op}?client=${client.clientId}&key=${locationKey}${extra}`;
  /**
   * Paid Cash-Ins to refund, made through the object twin before each slice (outside the measured
   * CPU): `before({ expected })` tops the supply up to what the slice may send.
   */
  const paidSupply = [];
  async function supplyPaid(expected) {
    const want = Math.min(expected, 60_000) - paidSupply.length;
    const calls = Math.ceil(Math.max(0, want) / 200);
    for (let i = 0; i < calls; i += 4) {
      const got = await Promise.all(
        Array.from({ length: Math.min(4, calls - i) }, async () =>
          (await fetch(`${hello}${ledgerPath('paid', '&n=200')}`)).json(),
        ),
      );
      for (const list of got) paidSupply.push(...list);
    }
  }
  const nextPaid = () => paidSupply.shift() ?? 'none-left';
  const refundScenario = (key, name, request) => ({
    key,
    name,
    untilIdle: true,
    ...(request.url && { url: request.url }),
    requests: [request.request],
    before: ({ expected }) => supplyPaid(expected),
  });

  // ── Scenarios ────────────────────────────────────────────────────────────────

  const healthProbe = await api('GET', '/health/pix', { headers: auth });
  const scenarios = [
    ...(hello === undefined
      ? []
      : [
          {
            key: 'ceiling',
            name: 'hello world (ceiling)',
            url: hello,
            requests: [{ method: 'GET', path: '/' }],
          },
          {
            key: 'ceiling-log',
            name: 'hello world + 1 log line',
            url: hello,
            requests: [{ method: 'GET', path: '/log' }],
          },
          {
            key: 'floor-rpc',
            name: 'bare DO RPC, no SQL (floor)',
            url: hello,
            requests: [{ method: 'GET', path: '/do-rpc' }],
          },
          {
            key: 'floor',
            name: 'bare DO RPC + 1 SQL read (floor)',
            url: hello,
            requests: [{ method: 'GET', path: '/do' }],
          },
          {
            key: 'floor-write',
            name: 'bare DO RPC + 1 SQL write (floor)',
            url: hello,
            requests: [{ method: 'GET', path: '/do-write' }],
          },
        ]),
    ...withTwin(cashInScenario, 'cash-in', 'POST /cash-in (QR PNG)', auth).map((s) => ({
      ...s,
      untilIdle: true,
    })),
    ...withTwin(getByIdScenario, 'get-by-id', 'GET /cash-in/{id}', auth, ids),
    ...withTwin(listScenario, 'list', 'GET /cash-in?from&to&limit=50&order=desc', auth),
    ...withTwin(cashOutScenario, 'cash-out', 'POST /cash-out (signed, executed to COMPLETED)', signed),
    ...withTwin(
      (key, name, headers) => cashOutScenario(key, name, headers, batchRequest(headers), BATCH),
      'cash-out-batch',
      `POST /cash-out/batch (${BATCH} items, each executed to COMPLETED)`,
      signed,
    ),
    refundScenario('refund', 'POST /cash-in/{id}/refund (signed, until idle)', {
      request: {
        method: 'POST',
        headers: signed,
        setupRequest: (req) => ({
          ...req,
          path: `/cash-in/${nextPaid()}/refund`,
          body: '{"reason":"CUSTOMER_REQUEST"}',
        }),
      },
    }),
    // The object twin: the same operations as ClientLedger RPCs with prepared commands, from the
    // reference worker. Their CPU minus floor-rpc's is the object's own cost (bench/report.mjs).
    ...(hello === undefined
      ? []
      : [
          {
            key: 'object:cash-in',
            name: 'ClientLedger.createCashIn (object twin)',
            url: hello,
            untilIdle: true,
            requests: [{ method: 'GET', path: ledgerPath('cash-in') }],
          },
          {
            ...cashOutScenario(
              'object:cash-out',
              'ClientLedger.createCashOut (object twin, to COMPLETED)',
              signed,
              {
                method: 'GET',
                path: ledgerPath('cash-out'),
              },
            ),
            url: hello,
          },
          {
            ...cashOutScenario(
              'object:cash-out-batch',
              `ClientLedger.createCashOutBatch (object twin, ${BATCH} items to COMPLETED)`,
              signed,
              { method: 'GET', path: ledgerPath('cash-out-batch', `&n=${BATCH}`) },
              BATCH,
            ),
            url: hello,
          },
          refundScenario('object:refund', 'ClientLedger.refundCashIn (object twin, until idle)', {
            url: hello,
            request: {
              method: 'GET',
              setupRequest: (req) => ({ ...req, path: ledgerPath('refund', `&id=${nextPaid()}`) }),
            },
          }),
        ]),
    // Breakdown references (docs/benchmark.md, Where the microseconds go): each differs from its scenario by
    // one part.
    {
      key: 'cash-in-noqr',
      name: 'POST /cash-in without the QR PNG',
      untilIdle: true,
      requests: [
        {
          method: 'POST',
          path: '/cash-in',
          headers: auth,
          setupRequest: (req) => ({ ...req, body: cashInBody(false) }),
        },
      ],
    },
    {
      // An id longer than any transaction's is answered 404 before the ledger is asked: the
      // gateway's own work (routing, authentication, a small JSON answer, the log line) alone.
      key: 'get-by-id-nodo',
      name: 'GET /cash-in/{too long id} (no ledger call)',
      requests: [{ method: 'GET', path: `/cash-in/${'x'.repeat(101)}`, headers: auth }],
    },
    {
      key: 'list-1',
      name: 'GET /cash-in?from&to&limit=1&order=desc',
      requests: [
        { method: 'GET', path: `/cash-in?from=${today}&to=${tomorrow}&limit=1&order=desc`, headers: auth },
      ],
    },
    healthProbe.status === 404
      ? { key: 'health', name: 'GET /health/pix', skip: 'route not implemented yet (404): skipped' }
      : {
          key: 'health',
          name: 'GET /health/pix',
          requests: [{ method: 'GET', path: '/health/pix', headers: auth }],
        },
  ];

  return { scenarios, api, auth, seedSeconds: old?.seedSeconds };
}
