/**
 * Test harness: real HTTP requests through the Worker's fetch handler (router, auth, Durable
 * Objects, D1), plus helpers to onboard a client and sign requests as an integrator would.
 */
import { exports } from 'cloudflare:workers';

export const BASE = 'http://127.0.0.1:8787';
export const ADMIN_TOKEN = 'test-admin-token';

export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`, init));
}

export function admin(path: string, method = 'GET', body?: unknown): Promise<Response> {
  return call(path, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

export interface OnboardedClient {
  clientId: string;
  clientSecret: string;
  applicationToken: string;
  cryptoToken: string;
  webhookSecret: string;
  statementStartDate: string;
  accounts: { number: string; branch: string; type: string; bank: { ispb: string; name: string } }[];
}

export async function onboardClient(body: Record<string, unknown> = {}): Promise<OnboardedClient> {
  const res = await admin('/admin/clients', 'POST', { name: 'Loja Teste Ltda', ...body });
  if (res.status !== 201) throw new Error(`onboarding failed: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function issueToken(client: OnboardedClient): Promise<string> {
  const res = await call('/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

export async function sign(cryptoToken: string, jwt: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(cryptoToken),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(jwt)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** An integrator session: authenticated calls, optionally signed. */
export class Integrator {
  private constructor(
    readonly client: OnboardedClient,
    readonly token: string,
  ) {}

  static async create(body: Record<string, unknown> = {}): Promise<Integrator> {
    const client = await onboardClient(body);
    return new Integrator(client, await issueToken(client));
  }

  /** The same client signed in again: a test that moves the clock past the token's lifetime. */
  async signedInAgain(): Promise<Integrator> {
    return new Integrator(this.client, await issueToken(this.client));
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      authorization: `Bearer ${this.token}`,
      applicationtoken: this.client.applicationToken,
      'content-type': 'application/json',
      ...extra,
    };
  }

  get(path: string, extra: Record<string, string> = {}): Promise<Response> {
    return call(path, { headers: this.headers(extra) });
  }

  post(path: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
    return call(path, { method: 'POST', headers: this.headers(extra), body: JSON.stringify(body) });
  }

  async signedPost(path: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
    const signature = await sign(this.client.cryptoToken, this.token);
    return this.post(path, body, { digitalsignature: signature, ...extra });
  }
}

let counter = 0;
export function cashInBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    amount: 150.25,
    externalReference: `order-${Date.now()}-${counter}`,
    payer: { name: 'Maria da Silva', document: '12345678909' },
    ...overrides,
  };
}
