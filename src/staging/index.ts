/**
 * The staging Worker's entry (wrangler.toml's top level: `npm start`, `npm run serve`, the tests, the
 * bench and the soak). It serves production's handlers (src/index.ts) with what only staging has,
 * none of which the production entry imports, so none of it is in the production bundle
 * (`npm run check:bundle` proves it by name):
 * - the sandbox settlement partner for undeclared partners, and the operator's fault injection;
 * - the staging-only routes (src/staging/routes.ts): sandbox, faults, open-finance consent, analyzer advance;
 * - `POST /__bench/seed-history` for `npm run bench` (./bench-seed.ts);
 * - a ClientLedger with bench seeding and crash points (durable-objects/staging/client-ledger.ts).
 * Every piece still checks ENVIRONMENT=staging itself, so this bundle deployed by mistake fails closed.
 */
import { errorResponse } from '../api/router';
import type { ApiRequest } from '../http/request-context';
import { type Route, routeTo, serve, worker } from '../index';
import { registerPartnerSimulator } from '../partners/port-registry';
import { SandboxPartner } from '../partners/sandbox';
import { handleBenchSeed, isBenchSeedRequest } from './bench-seed';
import { router } from './router';

export { StagingClientLedger as ClientLedger } from '../../durable-objects/staging/client-ledger';
export { ArchiveRegistry, HealthAnalyzer } from '../index';

registerPartnerSimulator((ispb, env) => new SandboxPartner(ispb, env));

const api = routeTo(router);

/** The bench's history seeding (outside the API's router and document), else the console or the API. */
const staging: Route = (request, rc) =>
  isBenchSeedRequest(request, rc.env)
    ? handleBenchSeed(request, rc.env).catch((error) => errorResponse(error, request as ApiRequest, rc))
    : api(request, rc);

export default {
  ...worker,
  fetch: (request, env, ctx) => serve(staging, request, env, ctx),
} satisfies ExportedHandler<Env>;
