/**
 * How the rest of the Worker reaches a client's ClientLedger (an RPC stub; the class is imported
 * for its type only).
 */
import type { ClientLedger } from './client-ledger';

/** The client's Durable Object. */
export function ledgerOf(env: Env, clientId: string) {
  return (env.CLIENT_LEDGER as DurableObjectNamespace<ClientLedger>).getByName(clientId);
}
