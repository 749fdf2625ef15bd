/**
 * HTTP client of one API Pix PSP: OAuth2 client credentials (token cached, refreshed a margin
 * before expiry and once more when a call is refused for its token: tokenRefused), mTLS through the `mtls_certificates` binding (passed in as
 * the fetcher), a time-out per attempt, and retries of the same request. Every write of the standard
 * is a PUT addressed by our id (txid, devolution id), so repeating it cannot act twice.
 */
import { mapProblem } from './problem-mapping';

export type Fetcher = (request: Request) => Promise<Response>;

export interface BcbClientConfig {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  fetcher: Fetcher;
  timeoutMs?: number;
  attempts?: number;
  now?: () => number;
  /** How a refusal maps to our failure codes: the API Pix problem table unless a partner API has its own. */
  mapProblem?: (status: number, body: unknown) => { failureCode: string; retryable: boolean };
}

export type BcbAnswer =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number; failureCode: string; retryable: boolean; body: unknown };

/**
 * An answer that may mean our token expired or was revoked before its time: 401 (what OAuth2
 * gateways in front of a PSP answer) or 403 `AcessoNegado` (what the API Pix document declares for
 * every operation). Either is met with one new token and the same request once more; a second
 * refusal is final (credentials or scope wrong: problem-mapping.ts).
 */
function tokenRefused(status: number, body: unknown): boolean {
  if (status === 401) return true;
  const type = (body as { type?: unknown } | null)?.type;
  return status === 403 && typeof type === 'string' && type.endsWith('/AcessoNegado');
}

/** Refresh this long before the PSP says the token expires. */
const REFRESH_MARGIN_MS = 60_000;

export class BcbApiPixClient {
  /** The OAuth2 token, shared with `sibling` clients of the same PSP. */
  private tokens: { current?: { value: string; expiresAt: number } } = {};
  private readonly now: () => number;

  constructor(private readonly config: BcbClientConfig) {
    this.now = config.now ?? Date.now;
  }

  private async accessToken(force: boolean): Promise<string> {
    if (!force && this.tokens.current && this.tokens.current.expiresAt - REFRESH_MARGIN_MS > this.now())
      return this.tokens.current.value;
    const basic = btoa(`${this.config.clientId}:${this.config.clientSecret}`);
    const response = await this.send(
      new Request(this.config.tokenUrl, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      }),
    );
    if (!response.ok) throw new Error(`API Pix token endpoint answered ${response.status}`);
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string') throw new Error('API Pix token answer has no access_token');
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : 300;
    this.tokens.current = { value: body.access_token, expiresAt: this.now() + seconds * 1000 };
    return this.tokens.current.value;
  }

  /** The same PSP's other API (its own base URL and refusal table) on this client's OAuth2 token. */
  sibling(baseUrl: string, mapProblem: BcbClientConfig['mapProblem']): BcbApiPixClient {
    const other = new BcbApiPixClient({ ...this.config, baseUrl, mapProblem });
    other.tokens = this.tokens;
    return other;
  }

  private async send(request: Request): Promise<Response> {
    const signal = AbortSignal.timeout(this.config.timeoutMs ?? 4_000);
    return this.config.fetcher(new Request(request, { signal }));
  }

  /**
   * One API call: retried on a network failure, a time-out or a retryable problem. `once`: a POST
   * that the PSP names (no id of ours to repeat it under) is sent a single time.
   */
  async call(
    method: 'GET' | 'PUT' | 'PATCH' | 'POST',
    path: string,
    body?: unknown,
    options: { once?: boolean } = {},
  ): Promise<BcbAnswer> {
    const attempts = options.once ? 1 : (this.config.attempts ?? 3);
    let last: BcbAnswer = {
      ok: false,
      status: 0,
      failureCode: 'PROVIDER_UNAVAILABLE',
      retryable: true,
      body: null,
    };
    let refreshed = false;
    for (let i = 0; i < attempts; i++) {
      let response: Response;
      try {
        const token = await this.accessToken(false);
        response = await this.send(
          new Request(`${this.config.baseUrl}${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        );
      } catch {
        continue; // unanswered: the same id may be sent again
      }
      const payload = await response.json().catch(() => null);
      if (response.ok) return { ok: true, status: response.status, body: payload };
      if (!refreshed && tokenRefused(response.status, payload)) {
        refreshed = true;
        this.tokens.current = undefined;
        i--; // an expired or revoked token is not an attempt
        continue;
      }
      const mapped = (this.config.mapProblem ?? mapProblem)(response.status, payload);
      last = { ok: false, status: response.status, body: payload, ...mapped };
      if (!mapped.retryable) return last;
    }
    return last;
  }
}
