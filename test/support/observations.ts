/**
 * What a client's ledger hands to the health queue. An observation leaves the outbox as the queue
 * takes it (issue 16), so a test that needs them afterwards keeps its own copy.
 */
import { runInDurableObject } from 'cloudflare:test';
import { ledgerStub } from './ledger';

export type Observed = { id: string; at: string; event: string; failureCode?: string };

/** From now on, every observation this client's ledger sends is also pushed to the returned list. */
export async function recordObservations(clientId: string): Promise<Observed[]> {
  const seen: Observed[] = [];
  // Typed loosely: the instance's env is replaced, which its public type does not allow.
  await (runInDurableObject as any)(ledgerStub(clientId), (instance: any) => {
    const real = instance.env;
    instance.env = {
      ...real,
      HEALTH_SIGNALS: {
        sendBatch: async (messages: { body: Observed }[]) => {
          await real.HEALTH_SIGNALS.sendBatch(messages);
          seen.push(...messages.map((m) => m.body));
        },
      },
    };
  });
  return seen;
}
