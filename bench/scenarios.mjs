// The benchmark's scenarios (bench/run.mjs, bench/profile.mjs): one onboarded client, funded,
// with Cash-Ins to read, and the autocannon request definitions of each hot path.
import { createHmac, randomUUID } from 'node:crypto';

/**
 * Onboards a client on `base` and returns the scenarios, in the order they are measured.
 * `hello`: the hello-world ceiling's URL (omitted: no ceiling scenario).
 */
export async function prepareScenarios({ base, hello, adminToken = 'dev-admin-token' }) {
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
  const onboarded = await api('POST', '/admin/clients', {
    headers: admin,
    body: { name: 'Loja Benchmark Ltda' },
  });
  if (onboarded.status !== 201)
    throw new Error(`onboarding: ${onboarded.status} ${JSON.stringify(onboarded.body)}`);
  const client = onboarded.body;
  // Limits high enough that every Cash-Out of the run is accepted and settled, not refused.
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
  await api('POST', `/sandbox/accounts/${transactional.number}/deposit`, {
    headers: auth,
    body: { amount: 1_000_000_000 },
  });

  const run = randomUUID().slice(0, 8);
  let sequence = 0;
  const cashInBody = () =>
    JSON.stringify({
      amount: 150.25,
      externalReference: `bench-${run}-${++sequence}`,
      payer: { name: 'Maria da Silva', document: '12345678909' },
      includeQrCodeImage: true,
    });
  const ids = [];
  for (let i = 0; i < 100; i++) {
    const created = await api('POST', '/cash-in', { headers: auth, body: JSON.parse(cashInBody()) });
    if (created.status !== 201) throw new Error(`seeding: ${created.status} ${JSON.stringify(created.body)}`);
    ids.push(created.body.transactionId);
  }
  const today = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 21 * 3600_000).toISOString().slice(0, 10);

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
    {
      key: 'cash-in',
      name: 'POST /cash-in (QR PNG)',
      requests: [
        {
          method: 'POST',
          path: '/cash-in',
          headers: auth,
          setupRequest: (req) => ({ ...req, body: cashInBody() }),
        },
      ],
    },
    {
      key: 'get-by-id',
      name: 'GET /cash-in/{id}',
      requests: [
        {
          method: 'GET',
          headers: auth,
          setupRequest: (req) => ({ ...req, path: `/cash-in/${ids[++sequence % ids.length]}` }),
        },
      ],
    },
    {
      key: 'list',
      name: 'GET /cash-in?from&to&limit=50',
      requests: [{ method: 'GET', path: `/cash-in?from=${today}&to=${tomorrow}&limit=50`, headers: auth }],
    },
    {
      key: 'cash-out',
      name: 'POST /cash-out (signed)',
      requests: [
        {
          method: 'POST',
          path: '/cash-out',
          headers: signed,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              amount: (1000 + (++sequence % 1000)) / 100,
              externalReference: `bench-out-${run}-${sequence}`,
              payee: {
                name: 'João Souza',
                document: '12345678909',
                destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: randomUUID() },
              },
            }),
          }),
        },
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

  return { scenarios, api, auth };
}
