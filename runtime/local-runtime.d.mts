// Types of runtime/local-runtime.mjs for TypeScript callers (scripts/soak/run.ts).

/** The D1 binding as miniflare hands it to Node. */
export interface NodeD1Database {
  prepare(query: string): {
    bind(...values: unknown[]): { all<T = Record<string, unknown>>(): Promise<{ results: T[] }> };
  };
}

export interface LocalRuntime {
  url: string;
  extraUrls: Record<string, string>;
  miniflare: { getD1Database(binding: string): Promise<NodeD1Database> };
  crons: string[];
  /** Fires every cron trigger once now; resolves to each one's outcome ("ok" on success). */
  scheduled(): Promise<string[]>;
  dispose(): Promise<void>;
}

export interface LocalRuntimeOptions {
  env?: string;
  host?: string;
  port?: number;
  persistTo: string;
  buildDir?: string;
  build?: boolean;
  extraWorkers?: { name: string; script: string; port: number; options?: Record<string, unknown> }[];
  cron?: boolean;
  verbose?: boolean;
  varsFile?: string;
  /** Read .dev.vars (default: every environment but production). */
  devVars?: boolean;
  inspectorPort?: number;
  onLog?: (line: { level: string; message: string }) => void;
  log?: (line: string) => void;
  /** Replaces DNS for the outbound guard (runtime/outbound-guard.mjs), for tests. */
  outboundLookup?: (host: string) => Promise<{ address: string; family: number }[]>;
}

export const ROOT: string;
export function bundleWorker(options: { outdir: string; env?: string; quiet?: boolean }): string;
export function applyLocalD1Migrations(options: {
  persistTo: string;
  env?: string;
  log?: (line: string) => void;
}): Promise<string[]>;
export function declaredSecrets(env?: string): string[];
export function missingSecrets(options: { env?: string; varsFile?: string; devVars?: boolean }): string[];
export function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime>;
