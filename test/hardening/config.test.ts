/**
 * Configuration fails closed (decisions §5): ENVIRONMENT is exactly staging or production, anything
 * else refuses to start instead of opening the sandbox; production needs PIX_LOCATION_HOST. (The
 * production bundle's refusal to start in workerd is checked by `npm run check:bundle`.)
 */
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { assertConfig, configProblems, isStaging, registryShardsConfigured } from '../../src/config';
import { requireAllowedWebhookUrl } from '../../src/http/webhook-url';
import worker from '../../src/index';

describe('ENVIRONMENT and PIX_LOCATION_HOST (decisions §5)', () => {
  it('accepts exactly staging, and production with a valid location host', () => {
    expect(configProblems({ ENVIRONMENT: 'staging', PIX_LOCATION_HOST: '' })).toEqual([]);
    expect(configProblems({ ENVIRONMENT: 'production', PIX_LOCATION_HOST: 'pix.loja.com.br' })).toEqual([]);
    expect(configProblems({ ENVIRONMENT: 'staging', PIX_LOCATION_HOST: 'localhost:8787' })).toEqual([]);
  });

  it('refuses any other ENVIRONMENT, production without a host, and an invalid host', () => {
    for (const value of ['Production', 'prod', 'development', 'test', '', ' staging', undefined, 1]) {
      expect(configProblems({ ENVIRONMENT: value, PIX_LOCATION_HOST: 'pix.loja.com.br' })).toHaveLength(1);
      expect(() => assertConfig({ ENVIRONMENT: value })).toThrow(/refuses to start/);
      expect(isStaging({ ENVIRONMENT: value })).toBe(false);
    }
    expect(configProblems({ ENVIRONMENT: 'production', PIX_LOCATION_HOST: '' })[0]).toMatch(
      /PIX_LOCATION_HOST is required/,
    );
    expect(configProblems({ ENVIRONMENT: 'production' })[0]).toMatch(/PIX_LOCATION_HOST is required/);
    for (const host of [
      'https://pix.loja.com.br',
      'pix.loja.com.br/x',
      `${'a'.repeat(41)}`,
      'a:99999',
      '-a.com',
    ])
      expect(configProblems({ ENVIRONMENT: 'production', PIX_LOCATION_HOST: host })).toHaveLength(1);
  });

  it('ARCHIVE_RETENTION_DAYS is an integer of days from 1 to 3650, else the Worker refuses to start', () => {
    expect(configProblems({ ENVIRONMENT: 'staging', ARCHIVE_RETENTION_DAYS: '35' })).toEqual([]);
    for (const days of ['0', '-1', '1.5', 'x', '3651'])
      expect(configProblems({ ENVIRONMENT: 'staging', ARCHIVE_RETENTION_DAYS: days })[0]).toMatch(
        /ARCHIVE_RETENTION_DAYS must be an integer/,
      );
  });

  it('ARCHIVE_HOT_BUDGET_BYTES is an integer of bytes from 64 KiB to 10 GB, else the Worker refuses to start', () => {
    expect(configProblems({ ENVIRONMENT: 'staging', ARCHIVE_HOT_BUDGET_BYTES: '1500000000' })).toEqual([]);
    for (const bytes of ['0', '65535', '1.5e3', 'x', '10000000001'])
      expect(configProblems({ ENVIRONMENT: 'staging', ARCHIVE_HOT_BUDGET_BYTES: bytes })[0]).toMatch(
        /ARCHIVE_HOT_BUDGET_BYTES must be an integer/,
      );
  });

  it('ARCHIVE_REGISTRY_SHARDS is an integer from 1 to 1024 (absent: 64), else the Worker refuses to start', async () => {
    expect(configProblems({ ENVIRONMENT: 'staging', ARCHIVE_REGISTRY_SHARDS: '256' })).toEqual([]);
    expect(registryShardsConfigured({ ARCHIVE_REGISTRY_SHARDS: '256' })).toBe(256);
    expect(registryShardsConfigured({ ARCHIVE_REGISTRY_SHARDS: 1024 })).toBe(1024);
    expect(registryShardsConfigured({})).toBe(64);
    for (const shards of ['0', '-64', '64.5', '1025', ' 64', '0x40', '6.4e1', 'many', 2048, true])
      expect(configProblems({ ENVIRONMENT: 'staging', ARCHIVE_REGISTRY_SHARDS: shards })[0]).toMatch(
        /ARCHIVE_REGISTRY_SHARDS must be an integer from 1 to 1024/,
      );
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const request = new Request('http://127.0.0.1/health') as Request<unknown, IncomingRequestCfProperties>;
    await expect(
      worker.fetch(request, { ...env, ARCHIVE_REGISTRY_SHARDS: '4096' } as unknown as Env, ctx),
    ).rejects.toThrow(/refuses to start: ARCHIVE_REGISTRY_SHARDS/);
  });

  it('a misconfigured Worker serves nothing, not even the sandbox', async () => {
    const request = () =>
      new Request('http://127.0.0.1/sandbox/accounts/1/deposit', { method: 'POST' }) as Request<
        unknown,
        IncomingRequestCfProperties
      >;
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    for (const ENVIRONMENT of ['development', 'Staging'])
      await expect(worker.fetch(request(), { ...env, ENVIRONMENT } as unknown as Env, ctx)).rejects.toThrow(
        /refuses to start/,
      );
    // The same request on the properly configured staging Worker reaches the sandbox (401: no token).
    expect((await exports.default.fetch(request())).status).toBe(401);
  });

  it('an unknown ENVIRONMENT gets production webhook rules, not staging ones', () => {
    const strict = { ...env, ENVIRONMENT: 'dev' } as unknown as Env;
    expect(() => requireAllowedWebhookUrl(strict, 'http://127.0.0.1:9/hook')).toThrow();
    expect(() => requireAllowedWebhookUrl(env, 'http://127.0.0.1:9/hook')).not.toThrow();
  });
});
