/**
 * The real-bank partners the Workers tests declare (vitest.config.ts): their declarations and
 * secrets, each pointed at its own fake API Pix PSP of test/setup/fake-psp.ts. Importable from both
 * sides (no Node).
 */
export const FAKE_PSP_ISPB = '09089356';
/**
 * A second partner, the same kind of PSP offering Pix Automático (`pixAutomatico`). Only clients
 * onboarded onto it reach it, so the first partner stays one without Pix Automático (its 422).
 */
export const FAKE_REC_PSP_ISPB = '13935893';

/** The partner declarations and secrets the test environment gets, each with its certificate binding. */
export function fakePspEnvironment(certificateBinding: string, recCertificateBinding = certificateBinding) {
  const declaration = {
    name: 'PSP de Testes S.A.',
    branch: '0001',
    kind: 'bcb-api-pix',
    baseUrl: 'https://psp.test/api/v2',
    tokenUrl: 'https://psp.test/oauth/token',
    pixKey: 'cobranca@connectpsp.example',
    webhookCertSubject: 'CN=webhooks.psp.test,O=PSP de Testes S.A.,C=BR',
    webhookCertIssuer: 'CN=PSP de Testes CA,O=PSP de Testes S.A.,C=BR',
    // Reports who paid each Pix as Efí does (gnExtras.pagador, enabled through /v2/gn/config).
    reportsPayer: true,
    // Cash-Outs through the same PSP's payout API (Efí Pix Send, test/support/fake-efi-payout.ts).
    payout: { kind: 'efi-pix-send', baseUrl: 'https://psp.test', payerKey: 'pagamentos@connectpsp.example' },
  };
  return {
    PARTNERS: JSON.stringify([
      { ispb: FAKE_PSP_ISPB, ...declaration, certificate: certificateBinding },
      {
        ...declaration,
        ispb: FAKE_REC_PSP_ISPB,
        name: 'PSP Automático de Testes S.A.',
        certificate: recCertificateBinding,
        pixAutomatico: { account: '7654321', accountType: 'PAGAMENTO', branch: '0001' },
      },
    ]),
    [`PARTNER_${FAKE_PSP_ISPB}_CLIENT_ID`]: 'connectpsp-test',
    [`PARTNER_${FAKE_PSP_ISPB}_CLIENT_SECRET`]: 'psp-test-secret',
    [`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`]: 'wh-3c1f0e9a7b5d4c2e8f6a1b3d5e7f9a0c',
    [`PARTNER_${FAKE_REC_PSP_ISPB}_CLIENT_ID`]: 'connectpsp-rec',
    [`PARTNER_${FAKE_REC_PSP_ISPB}_CLIENT_SECRET`]: 'psp-rec-secret',
    [`PARTNER_${FAKE_REC_PSP_ISPB}_WEBHOOK_SECRET`]: 'wh-rec-9d2e4f6a8b0c1d3e5f7a9b1c3d5e7f90',
  };
}

/**
 * The environment as it was with the first partner alone: for tests of what runs over every declared
 * partner (onboarding's defaults, the daily reconciliation), whose figures the second partner's
 * (empty) days would otherwise join. Bindings stay reachable through the prototype.
 */
export function firstPartnerOnly<T extends object>(environment: T): T {
  const partners = JSON.parse(String((environment as { PARTNERS?: unknown }).PARTNERS)) as { ispb: string }[];
  return Object.assign(Object.create(environment), {
    PARTNERS: JSON.stringify(partners.filter((p) => p.ispb === FAKE_PSP_ISPB)),
  });
}
