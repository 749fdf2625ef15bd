/**
 * The soak's HTTP side: every call goes through one `fetch`-like function (Node's fetch against
 * the local runtime, or exports.default.fetch inside workerd) and is tallied by status and code.
 * Each call names what it expects; anything else — and every 5xx — is an unexpected response,
 * recorded and thrown so the operation stops there.
 */

export type FetchLike = (request: Request) => Promise<Response>;

/** A parsed JSON body: the soak reads the fields it knows and checks them itself. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
export type Json = any;

export interface ApiResponse {
  status: number;
  body: Json;
  headers: Headers;
}

export interface UnexpectedRecord {
  op: string;
  method: string;
  path: string;
  status: number;
  code?: string;
  detail?: string;
}

export class UnexpectedResponse extends Error {
  constructor(readonly record: UnexpectedRecord) {
    super(`${record.op}: ${record.method} ${record.path} answered ${record.status} ${record.code ?? ''}`);
  }
}

/** A non-2xx answer the scenario accepts as a business outcome (e.g. 422 on an overdrawn sweep). */
export interface Allowed {
  status: number;
  code?: string;
}

export interface CallOptions {
  headers?: Record<string, string>;
  body?: unknown;
  expect: number[];
  allow?: Allowed[];
}

export class Tally {
  requests = 0;
  readonly byStatus = new Map<number, number>();
  /** `status code` of every non-2xx answer, and whether the scenario expected it. */
  readonly errors = new Map<string, { count: number; expected: boolean }>();
  readonly unexpected: UnexpectedRecord[] = [];

  error(key: string, expected: boolean): void {
    const entry = this.errors.get(key) ?? { count: 0, expected };
    entry.count += 1;
    entry.expected &&= expected;
    this.errors.set(key, entry);
  }
}

export class Gateway {
  readonly tally = new Tally();

  constructor(
    private readonly fetchFn: FetchLike,
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {}

  async call(op: string, method: string, path: string, options: CallOptions): Promise<ApiResponse> {
    this.tally.requests += 1;
    let res: Response;
    try {
      res = await this.fetchFn(
        new Request(`${this.baseUrl}${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...options.headers },
          ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
        }),
      );
    } catch (error) {
      return this.unexpected({ op, method, path, status: 0, code: 'NETWORK', detail: String(error) });
    }
    const text = await res.text();
    let body: Json;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    this.tally.byStatus.set(res.status, (this.tally.byStatus.get(res.status) ?? 0) + 1);
    if (options.expect.includes(res.status)) return { status: res.status, body, headers: res.headers };
    const code = typeof body?.code === 'string' ? body.code : undefined;
    const allowed =
      res.status < 500 &&
      (options.allow ?? []).some((a) => a.status === res.status && (a.code === undefined || a.code === code));
    this.tally.error(`${res.status} ${code ?? '-'}`, allowed);
    if (allowed) return { status: res.status, body, headers: res.headers };
    return this.unexpected({
      op,
      method,
      path,
      status: res.status,
      ...(code !== undefined && { code }),
      ...(typeof body?.detail === 'string' && { detail: body.detail }),
    });
  }

  private unexpected(record: UnexpectedRecord): never {
    this.tally.unexpected.push(record);
    if (record.status === 0) this.tally.error('network error', false);
    throw new UnexpectedResponse(record);
  }

  admin(
    op: string,
    method: string,
    path: string,
    body: unknown,
    expect: number[],
    allow?: CallOptions['allow'],
  ): Promise<ApiResponse> {
    return this.call(op, method, path, {
      headers: { authorization: `Bearer ${this.adminToken}` },
      body,
      expect,
      ...(allow && { allow }),
    });
  }
}

async function hmacHex(key: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    encoder.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface OnboardedAccount {
  number: string;
  type: 'TRANSACTIONAL' | 'PROPRIETARY';
  bank: { ispb: string };
}

export interface Onboarded {
  clientId: string;
  clientSecret: string;
  applicationToken: string;
  cryptoToken: string;
  statementStartDate: string;
  accounts: OnboardedAccount[];
}

/** JWTs live 3600 s (docs/contract.md, Authentication): a session logs in again well before. */
const TOKEN_REFRESH_MS = 45 * 60_000;

/** One integrator: its credentials, a JWT kept fresh, and the DigitalSignature of that JWT. */
export class ClientSession {
  private token = '';
  private signature = '';
  private issuedAt = 0;

  constructor(
    private readonly gateway: Gateway,
    readonly client: Onboarded,
  ) {}

  private async login(): Promise<void> {
    const res = await this.gateway.call('login', 'POST', '/auth/token', {
      body: { clientId: this.client.clientId, clientSecret: this.client.clientSecret },
      expect: [200],
    });
    this.token = res.body.accessToken;
    this.signature = await hmacHex(this.client.cryptoToken, this.token);
    this.issuedAt = Date.now();
  }

  private async headers(signed: boolean, extra: Record<string, string> = {}) {
    if (Date.now() - this.issuedAt > TOKEN_REFRESH_MS) await this.login();
    return {
      authorization: `Bearer ${this.token}`,
      applicationtoken: this.client.applicationToken,
      ...(signed && { digitalsignature: this.signature }),
      ...extra,
    };
  }

  async get(op: string, path: string, expect = [200]): Promise<ApiResponse> {
    return this.gateway.call(op, 'GET', path, { headers: await this.headers(false), expect });
  }

  async post(
    op: string,
    path: string,
    body: unknown,
    options: { expect: number[]; allow?: Allowed[]; signed?: boolean; headers?: Record<string, string> },
  ): Promise<ApiResponse> {
    return this.gateway.call(op, 'POST', path, {
      headers: await this.headers(options.signed ?? false, options.headers),
      body,
      expect: options.expect,
      ...(options.allow && { allow: options.allow }),
    });
  }
}
