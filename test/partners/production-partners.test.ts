/**
 * Production never settles with a simulated bank (configuration fails closed): the sandbox catalog
 * is no partner there, a declared `sandbox` partner is refused, the port refuses an undeclared
 * partner, and onboarding without `partners` gets the declared real partners (none: 503).
 */
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { defaultPartners, PartnerConfigError, settlementPartner } from '../../src/partners/config';
import { partnerPort } from '../../src/partners/port-registry';
import { FAKE_PSP_ISPB, firstPartnerOnly } from '../support/fake-psp-env';
import { ADMIN_TOKEN, BASE } from '../support/harness';

const SANDBOX_ISPB = '31880826';
// A production deployment declaring the first test partner alone.
const production = {
  ...env,
  ENVIRONMENT: 'production',
  PIX_LOCATION_HOST: 'pix.example.com.br',
  PARTNERS: (firstPartnerOnly(env) as { PARTNERS?: unknown }).PARTNERS,
} as Env;

function onboardInProduction(environment: Env, body: Record<string, unknown>): Promise<Response> {
  const request = new Request(`${BASE}/admin/clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }) as Request<unknown, IncomingRequestCfProperties>;
  return worker.fetch(request, environment, createExecutionContext());
}

describe('partners in production', () => {
  it('the sandbox catalog is no partner there; declared partners are', () => {
    expect(settlementPartner(env, SANDBOX_ISPB)).toBeDefined();
    expect(settlementPartner(production, SANDBOX_ISPB)).toBeUndefined();
    expect(settlementPartner(production, FAKE_PSP_ISPB)).toMatchObject({ name: 'PSP de Testes S.A.' });
    expect(defaultPartners(production)).toEqual([FAKE_PSP_ISPB]);
    expect(defaultPartners(env)).toContain(SANDBOX_ISPB);
  });

  it('the port refuses an undeclared partner instead of simulating it', () => {
    expect(() => partnerPort(production, SANDBOX_ISPB)).toThrow(PartnerConfigError);
    expect(partnerPort(production, FAKE_PSP_ISPB).ispb).toBe(FAKE_PSP_ISPB);
    expect(partnerPort(env, SANDBOX_ISPB).ispb).toBe(SANDBOX_ISPB);
  });

  it('a declared sandbox partner is refused', () => {
    const declared = {
      PARTNERS: JSON.stringify([{ ispb: SANDBOX_ISPB, name: 'Simulado', kind: 'sandbox' }]),
    };
    expect(() => settlementPartner({ ...declared, ENVIRONMENT: 'production' }, SANDBOX_ISPB)).toThrow(
      'PARTNERS[0] is a sandbox partner: only staging simulates a bank',
    );
    expect(settlementPartner({ ...declared, ENVIRONMENT: 'staging' }, SANDBOX_ISPB)).toBeDefined();
  });

  it('onboarding gets the declared partners, refuses a sandbox one, and answers 503 with none declared', async () => {
    const created = await onboardInProduction(production, { name: 'Loja Produção Ltda' });
    expect(created.status, await created.clone().text()).toBe(201);
    const client = (await created.json()) as { accounts: { bank: { ispb: string } }[] };
    expect(new Set(client.accounts.map((a) => a.bank.ispb))).toEqual(new Set([FAKE_PSP_ISPB]));

    const sandbox = await onboardInProduction(production, { name: 'Loja', partners: [SANDBOX_ISPB] });
    expect(sandbox.status).toBe(400);
    expect(((await sandbox.json()) as { code: string }).code).toBe('VALIDATION_ERROR');

    const bare = { ...production, PARTNERS: '' } as Env;
    const none = await onboardInProduction(bare, { name: 'Loja' });
    expect(none.status).toBe(503);
    expect(((await none.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
  });
});
