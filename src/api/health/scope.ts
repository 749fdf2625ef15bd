/**
 * How the PIX health operations read (docs/contract.md, PIX health): from D1, where the
 * HealthAnalyzer publishes, scoped to the client; a read failure is 503 PIX_HEALTH_UNAVAILABLE with
 * Retry-After, never a 500.
 */
import type { StoredIncident } from '../../db/health';
import { type IncidentRecord, isVisibleTo } from '../../health';
import type { Principal } from '../../http/auth';
import { ProblemError } from '../../http/errors';

export const scopeOf = (p: Principal) => ({ clientId: p.clientId, partnerIspbs: p.credentials.partners });
export const visible = (p: Principal) => (r: StoredIncident) =>
  isVisibleTo(r as unknown as IncidentRecord, scopeOf(p));

/** Any failure to read the engine's output is a health-read failure, not a server error. */
export async function read<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch {
    throw new ProblemError('PIX_HEALTH_UNAVAILABLE', 'PIX health could not be read; retry in a minute', {
      headers: { 'retry-after': '60' },
    });
  }
}
