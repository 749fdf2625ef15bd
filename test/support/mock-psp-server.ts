/**
 * The fake PSP of the Workers tests (test/setup/fake-psp.ts: API Pix validated against the vendored
 * bacen/pix-api document, Efí Pix Send against Efí's SDK schemas) served over plain HTTP on this
 * machine, so `npm start` can be pointed at it as a `bcb-api-pix` partner. Node only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fakePspFetcher } from '../setup/fake-psp';
import { FAKE_PSP_ISPB } from './fake-psp-env';

const OPENAPI = path.join(import.meta.dirname, '..', 'fixtures', 'bcb-pix-api', 'openapi.yaml');

export interface MockPsp {
  url: string;
  server: Server;
  /** The partner declaration and secrets that point a gateway at this mock. */
  partnerVars: Record<string, string>;
  /** Callbacks posted so far (when `callbacks` is on), oldest first: Pix, `rec` and `cobr`. */
  posted: PostedCallback[];
  close(): Promise<void>;
}

export interface PostedCallback {
  /** The Pix's end-to-end id, or the recurrence's idRec / the recurring charge's txid. */
  endToEndId: string;
  url: string;
  /** HTTP status of the last attempt, or the network error. */
  outcome: number | string;
  /** The gateway's answer to the last attempt (JSON when it is JSON): what the callback did. */
  answer?: unknown;
  attempts: number;
  at: string;
}

export interface MockPspOptions {
  /**
   * Post the API Pix callback itself after `/__control/pay`, `/return` and `/devolution`, as a
   * real PSP does: to the webhook URL the gateway registered for the charge's key (`PUT
   * /webhook/{chave}`), else to `<fallbackBase>/partners/<ISPB>/webhook/<secret>`.
   */
  callbacks?: { fallbackBase?: string; log?: (line: string) => void };
}

/** Waits before each retry of a callback the gateway did not take (a PSP retries too). */
const CALLBACK_RETRY_MS = [1_000, 2_000, 4_000, 8_000];

export async function startMockPsp(port = 0, options: MockPspOptions = {}): Promise<MockPsp> {
  const fetcher = fakePspFetcher(OPENAPI, { balanceFollowsBooks: true });
  const posted: PostedCallback[] = [];
  let partnerVars: Record<string, string> = {};
  const control = async (name: string, body?: unknown) =>
    (await fetcher(
      new Request(`https://psp.test/__control/${name}`, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    ).then((r) => r.json())) as any;
  const secret = () => partnerVars[`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`];
  /** Where a callback goes: the URL the gateway registered, else the fallback's webhook path. */
  const callbackBase = (registered: string | null | undefined) =>
    registered ??
    (options.callbacks?.fallbackBase &&
      `${options.callbacks.fallbackBase.replace(/\/$/, '')}/partners/${FAKE_PSP_ISPB}/webhook/${secret()}`);
  /** Posts one callback as a PSP does: recorded, retried on CALLBACK_RETRY_MS until a 200. */
  async function post(id: string, label: string, url: string, body: string): Promise<void> {
    const record: PostedCallback = { endToEndId: id, url, outcome: 0, attempts: 0, at: '' };
    posted.push(record);
    for (let attempt = 0; ; attempt++) {
      record.attempts = attempt + 1;
      record.at = new Date().toISOString();
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const text = await res.text();
        record.outcome = res.status;
        try {
          record.answer = JSON.parse(text);
        } catch {
          record.answer = text;
        }
      } catch (error) {
        record.outcome = String((error as { cause?: { code?: string } }).cause?.code ?? error);
        delete record.answer;
      }
      options.callbacks?.log?.(
        `callback ${label} -> ${url.replace(secret() ?? '\0', '<secret>')}: ${record.outcome}`,
      );
      const delay = CALLBACK_RETRY_MS[attempt];
      if (record.outcome === 200 || delay === undefined) return;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  /** The callback a PSP posts for one Pix, to the URL registered for its charge's key. */
  async function postCallback(endToEndId: string): Promise<void> {
    const pix = await control(`pix/${endToEndId}`);
    if (!pix) return;
    const cob = pix.txid ? await control(`cob/${encodeURIComponent(pix.txid)}`) : null;
    const registered = cob?.chave
      ? (await control(`webhook/${encodeURIComponent(cob.chave)}`)).webhookUrl
      : null;
    const base = callbackBase(registered);
    if (!base) return;
    const body = JSON.stringify(await control('callback', { endToEndIds: [endToEndId] }));
    await post(endToEndId, endToEndId, `${base}/pix`, body);
  }
  /** The `rec` or `cobr` callback a PSP posts after the payer's side changed one (webhookrec/cobr). */
  async function postRecurrenceCallback(kind: 'rec' | 'cobr', id: string): Promise<void> {
    const base = callbackBase((await control('webhookrec'))[kind] as string | null);
    if (!base) return;
    const body = JSON.stringify(
      await control(`${kind}-callback`, kind === 'rec' ? { idRecs: [id] } : { txids: [id] }),
    );
    await post(id, `${kind} ${id}`, `${base}/${kind}`, body);
  }
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    if (req.url === '/__control/callbacks') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ callbacks: posted }));
      return;
    }
    // The fake knows itself as https://psp.test; only the transport differs here.
    const request = new Request(`https://psp.test${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) =>
        v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v] as [string, string]],
      ),
      ...(body && req.method !== 'GET' && req.method !== 'HEAD' && { body }),
    });
    try {
      const response = await fetcher(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
      // After answering, like a PSP: the event's callback goes out on its own.
      const event = /^\/__control\/(pay|return|devolution)$/.exec(req.url ?? '');
      if (options.callbacks && event && response.ok && body) {
        const { endToEndId } = JSON.parse(body.toString('utf8')) as { endToEndId?: string };
        if (endToEndId) void postCallback(endToEndId).catch(() => {});
      }
      const recurring = /^\/__control\/(rec|cobr)-(approve|reject|payer-cancel|pay|fail)$/.exec(
        req.url ?? '',
      );
      if (options.callbacks && recurring && response.ok && body) {
        const sent = JSON.parse(body.toString('utf8')) as { idRec?: string; txid?: string };
        const id = recurring[1] === 'rec' ? sent.idRec : sent.txid;
        if (id) void postRecurrenceCallback(recurring[1] as 'rec' | 'cobr', id).catch(() => {});
      }
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  partnerVars = {
    PARTNERS: JSON.stringify([
      {
        ispb: FAKE_PSP_ISPB,
        name: 'PSP de Testes S.A.',
        branch: '0001',
        kind: 'bcb-api-pix',
        baseUrl: `${url}/api/v2`,
        tokenUrl: `${url}/oauth/token`,
        pixKey: 'cobranca@connectpsp.example',
        reportsPayer: true,
        payout: { kind: 'efi-pix-send', baseUrl: url, payerKey: 'pagamentos@connectpsp.example' },
        // Pix Automático (`/rec`, `/cobr`): recurring charges credit this account of ours at the PSP.
        pixAutomatico: { account: '1234567', accountType: 'PAGAMENTO', branch: '0001' },
      },
    ]),
    [`PARTNER_${FAKE_PSP_ISPB}_CLIENT_ID`]: 'connectpsp-local',
    [`PARTNER_${FAKE_PSP_ISPB}_CLIENT_SECRET`]: 'mock-psp-secret',
    [`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`]: 'wh-local-mock-psp-0123456789abcdef',
  };
  return {
    url,
    server,
    partnerVars,
    posted,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
