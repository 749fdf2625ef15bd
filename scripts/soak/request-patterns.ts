/**
 * How integrators and the network behave around a request: polling a transaction until it moves,
 * racing requests of which only one may win, and retrying under one X-Idempotency-Key.
 */
import type { ApiResponse, Json } from './api';
import type { Kind } from './plan';
import type { SoakClient, TrafficContext } from './soak-context';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls GET by id until `done` holds or the time runs out; returns the last status seen. */
export async function waitStatus(
  c: SoakClient,
  op: string,
  kind: Kind,
  id: string,
  done: (status: string) => boolean,
  timeoutMs = 30_000,
): Promise<string> {
  const path = `/${kind === 'CASH_IN' ? 'cash-in' : 'cash-out'}/${encodeURIComponent(id)}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await c.session.get(op, path)).body.status as string;
    if (done(status) || Date.now() > deadline) return status;
    await sleep(250);
  }
}

/** Records a broken rule the gateway answered without an error status (e.g. two winners of a race). */
function violation(t: TrafficContext, op: string, path: string, detail: string): void {
  t.gateway.tally.unexpected.push({ op, method: 'POST', path, status: -1, code: 'RULE', detail });
}

/** Concurrent requests of which exactly one may succeed; the others must lose with a 4xx. */
export async function race(
  t: TrafficContext,
  op: string,
  requests: { path: string; send: () => Promise<ApiResponse> }[],
  success: number,
): Promise<void> {
  // A few milliseconds of jitter, so neither request always arrives first.
  const answers = await Promise.all(requests.map((r) => sleep(t.random.int(0, 8)).then(r.send)));
  const winners = answers.filter((a) => a.status === success).length;
  if (winners !== 1) {
    violation(
      t,
      op,
      requests.map((r) => r.path).join(' | '),
      `${winners} of ${answers.length} racing requests won`,
    );
  }
}

interface Retried {
  kind: Kind;
  op: string;
  path: string;
  body: Record<string, unknown>;
  success: number;
  signed: boolean;
  /** The externalReference of the transaction the key belongs to. */
  reference: string;
  /** What one execution creates: the transactionId, or a refund's endToEndId. */
  identity: (body: Json) => string | undefined;
}

/**
 * The same request twice under one X-Idempotency-Key, back to back or at once; a client told 409
 * IDEMPOTENCY_KEY_IN_PROGRESS tries again shortly. Returns the first answer.
 */
export async function sendWithRetry(t: TrafficContext, c: SoakClient, r: Retried): Promise<ApiResponse> {
  const headers = { 'x-idempotency-key': crypto.randomUUID() };
  const send = async () => {
    for (let attempt = 0; ; attempt++) {
      const res = await c.session.post(r.op, r.path, r.body, {
        expect: [r.success],
        allow: [{ status: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS' }],
        signed: r.signed,
        headers,
      });
      if (res.status !== 409 || attempt >= 20) return res;
      await sleep(100);
    }
  };
  const answers = t.random.next() < 0.5 ? await Promise.all([send(), send()]) : [await send(), await send()];
  t.log.retries.push({
    clientId: c.clientId,
    kind: r.kind,
    externalReference: r.reference,
    answers: answers.map((a) => {
      const id = a.status === r.success ? r.identity(a.body) : undefined;
      return {
        status: a.status,
        ...(id !== undefined && { transactionId: id }),
        replayed: a.headers.get('idempotent-replayed') === 'true',
      };
    }),
  });
  const first = answers.find((a) => a.status === r.success);
  if (!first) throw new Error(`${r.op}: no answer ${r.success} after retries`);
  return first;
}

export const transactionIdOf = (body: Json) => body?.transactionId as string | undefined;
