/**
 * Deployment configuration that must be right before the Worker serves anything (docs/contract.md,
 * Environments and configuration). It fails closed: only `ENVIRONMENT=staging` opens the sandbox and relaxes
 * the webhook URL rules, any value but `staging` or `production` refuses to start, and production refuses to
 * start without a valid PIX_LOCATION_HOST.
 */
import { isValidLocationHost } from './domain/location';

interface ConfigEnv {
  ENVIRONMENT?: unknown;
  PIX_LOCATION_HOST?: unknown;
  ARCHIVE_RETENTION_DAYS?: unknown;
  ARCHIVE_HOT_BUDGET_BYTES?: unknown;
  ARCHIVE_REGISTRY_SHARDS?: unknown;
  OPERATOR_ALERT_URL?: unknown;
  OPERATOR_ALERT_SECRET?: unknown;
}

/** What is wrong with this configuration, in words an operator can act on; empty when nothing. */
export function configProblems(env: ConfigEnv): string[] {
  const problems: string[] = [];
  if (env.ENVIRONMENT !== 'staging' && env.ENVIRONMENT !== 'production')
    problems.push(
      `ENVIRONMENT must be exactly "staging" or "production", not ${JSON.stringify(env.ENVIRONMENT)}`,
    );
  const host = typeof env.PIX_LOCATION_HOST === 'string' ? env.PIX_LOCATION_HOST : '';
  if (env.ENVIRONMENT === 'production' && !host)
    problems.push('PIX_LOCATION_HOST is required in production (the host BR Codes name as charge location)');
  if (host && !isValidLocationHost(host))
    problems.push(`PIX_LOCATION_HOST must be a host[:port] that fits the BR Code location, not "${host}"`);
  problems.push(...operatorAlertProblems(env));
  for (const check of [retentionMs, hotBudgetBytes, registryShardsConfigured])
    try {
      check(env);
    } catch (error) {
      problems.push((error as Error).message);
    }
  return problems;
}

/**
 * The env objects already found valid. The runtime hands every request of an isolate the same env
 * object, so after its first request the check is one lookup (building a key from three bindings
 * per request showed up in profiles); a different object — another isolate's, a test's — is
 * checked in full.
 */
const checked = new WeakSet<object>();

/** Throws unless the configuration is valid; one WeakSet lookup after the first call per env. */
export function assertConfig(env: ConfigEnv): void {
  if (checked.has(env)) return;
  const problems = configProblems(env);
  if (problems.length > 0) throw new Error(`ConnectPSP refuses to start: ${problems.join('; ')}`);
  checked.add(env);
}

/** The sandbox, fault injection and relaxed webhook rules exist only here. */
export function isStaging(env: ConfigEnv): boolean {
  return env.ENVIRONMENT === 'staging';
}

/**
 * Bench-only history seeding (durable-objects/staging/bench-seed.ts): only on staging, and only
 * with BENCH_SEED exactly "on" — a variable that bench/run.mjs alone sets and no deployment has.
 */
export function isBenchSeedEnabled(env: ConfigEnv & { BENCH_SEED?: unknown }): boolean {
  return isStaging(env) && env.BENCH_SEED === 'on';
}

const DAY_MS = 86_400_000;
/** Closed history stays hot this long by default: this and last month (limits, recent twins). */
export const DEFAULT_RETENTION_DAYS = 35;

/** ARCHIVE_RETENTION_DAYS (var): absent = 35; anything but an integer 1..3650 refuses to start. */
export function retentionMs(env: { ARCHIVE_RETENTION_DAYS?: unknown }): number {
  const raw = env.ARCHIVE_RETENTION_DAYS;
  if (raw === undefined || raw === '') return DEFAULT_RETENTION_DAYS * DAY_MS;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new Error(`ARCHIVE_RETENTION_DAYS must be an integer from 1 to 3650, not ${JSON.stringify(raw)}`);
  return days * DAY_MS;
}

/**
 * ARCHIVE_HOT_BUDGET_BYTES' default: the object's live SQLite bytes, less the archive's filters
 * (kept forever, ≤ 1.13 GB after 10 years at 1,000,000 Cash-Ins a day), past which closed history is
 * archived early, whatever ARCHIVE_RETENTION_DAYS says. 0.75 GB holds what must stay hot at that
 * volume (a day's idempotency keys, ≈ 0.24 GB; open work, limits, open deliveries) with room to
 * spare, and keeps filter + window under the object's 2 GB (docs/operating.md, Capacity planning).
 */
export const DEFAULT_HOT_BUDGET_BYTES = 750_000_000;

/** ARCHIVE_HOT_BUDGET_BYTES (var): absent = 0.75 GB; anything but an integer 64 KiB..10 GB refuses to start. */
export function hotBudgetBytes(env: object): number {
  // Optional and absent from wrangler.toml: not on the generated Env type.
  const raw = (env as { ARCHIVE_HOT_BUDGET_BYTES?: unknown }).ARCHIVE_HOT_BUDGET_BYTES;
  if (raw === undefined || raw === '') return DEFAULT_HOT_BUDGET_BYTES;
  const bytes = Number(raw);
  if (!Number.isInteger(bytes) || bytes < 65_536 || bytes > 10_000_000_000)
    throw new Error(
      `ARCHIVE_HOT_BUDGET_BYTES must be an integer from 65536 to 10000000000, not ${JSON.stringify(raw)}`,
    );
  return bytes;
}

/** Archive-registry shards per client unless the deployment says otherwise: every client before the count was recorded. */
export const DEFAULT_REGISTRY_SHARDS = 64;
/** Enough for 5 million Cash-Ins and 2.5 million Cash-Outs a day for ten years at ≤ 2 GB per shard (docs/operating.md). */
export const MAX_REGISTRY_SHARDS = 1024;

/**
 * ARCHIVE_REGISTRY_SHARDS (var): the shard count a client's archive registry begins with, recorded in
 * the client's object at its first archive step and never changed after (docs/storage-schema.md,
 * Archive). Absent = 64; anything but an integer 1..1024 refuses to start.
 */
export function registryShardsConfigured(env: object): number {
  // Optional and absent from wrangler.toml: not on the generated Env type.
  const raw = (env as { ARCHIVE_REGISTRY_SHARDS?: unknown }).ARCHIVE_REGISTRY_SHARDS;
  if (raw === undefined || raw === '') return DEFAULT_REGISTRY_SHARDS;
  // Digits only: Number() would also take ' 64', '0x40' or '6.4e1'.
  const shards =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^[0-9]+$/.test(raw)
        ? Number(raw)
        : Number.NaN;
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_REGISTRY_SHARDS)
    throw new Error(
      `ARCHIVE_REGISTRY_SHARDS must be an integer from 1 to ${MAX_REGISTRY_SHARDS}, not ${JSON.stringify(raw)}`,
    );
  return shards;
}

/**
 * OPERATOR_ALERT_URL (var, optional): where daily reconciliation breaks are posted, signed like
 * client webhooks with OPERATOR_ALERT_SECRET (secret, `whsec_` + base64). A URL without a secret,
 * or one production would not post to (not https), refuses to start: alerts never go out unsigned.
 */
export function operatorAlertProblems(env: ConfigEnv): string[] {
  const url = typeof env.OPERATOR_ALERT_URL === 'string' ? env.OPERATOR_ALERT_URL : '';
  if (!url) return [];
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    return [`OPERATOR_ALERT_URL must be an absolute URL, not "${url}"`];
  }
  const problems: string[] = [];
  if (env.ENVIRONMENT === 'production' && parsed.protocol !== 'https:')
    problems.push('OPERATOR_ALERT_URL must be https in production');
  const secret = env.OPERATOR_ALERT_SECRET;
  if (typeof secret !== 'string' || !/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/.test(secret))
    problems.push('OPERATOR_ALERT_SECRET (whsec_ + base64) is required with OPERATOR_ALERT_URL');
  return problems;
}
