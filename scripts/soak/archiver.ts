/**
 * Archiving while the soak runs (docs/operating.md, Archive to R2): every few seconds each client's closed
 * history is moved to R2 with the operator call (`POST /admin/clients/{id}/archive`, `before` = now), so the
 * traffic and the final checks read across the hot/archive boundary. Every read the invariants make must
 * still agree with the traffic log and the partners' books.
 */
import type { Gateway } from './api';
import type { TrafficLog } from './snapshot';
import type { SoakClient } from './soak-context';

/** Starts the loop; the returned function stops it and waits for the pass under way. */
export function startArchiver(
  gateway: Gateway,
  clients: SoakClient[],
  log: TrafficLog,
  everyMs: number,
): () => Promise<void> {
  let stopped = false;
  let wake: () => void = () => undefined;
  const pass = async () => {
    for (const client of clients) {
      const res = await gateway.admin(
        'archive',
        'POST',
        `/admin/clients/${client.clientId}/archive`,
        { before: new Date().toISOString() },
        [200],
      );
      log.archive.calls += 1;
      log.archive.archived += Number(res.body?.archivedTransactions ?? 0);
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, everyMs);
      });
      if (stopped) break;
      await pass().catch(() => undefined); // tallied as unexpected by the gateway
    }
  })();
  return async () => {
    stopped = true;
    wake();
    await loop;
    await pass().catch(() => undefined);
  };
}
