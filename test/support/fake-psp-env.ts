/**
 * The real-bank partner the Workers tests declare (vitest.config.ts): its declaration and secrets,
 * pointed at the fake API Pix PSP of test/setup/fake-psp.ts. Importable from both sides (no Node).
 */
export const FAKE_PSP_ISPB = '09089356';

/** The partner declaration and secrets the test environment gets. */
export function fakePspEnvironment(certificateBinding: string) {
  return {
    PARTNERS: JSON.stringify([
      {
        ispb: FAKE_PSP_ISPB,
        name: 'PSP de Testes S.A.',
        branch: '0001',
        kind: 'bcb-api-pix',
        baseUrl: 'https://psp.test/api/v2',
        tokenUrl: 'https://psp.test/oauth/token',
        pixKey: 'cobranca@connectpsp.example',
        certificate: certificateBinding,
        webhookCertSubject: 'CN=webhooks.psp.test,O=PSP de Testes S.A.,C=BR',
        webhookCertIssuer: 'CN=PSP de Testes CA,O=PSP de Testes S.A.,C=BR',
        // Reports who paid each Pix as Efí does (gnExtras.pagador, enabled through /v2/gn/config).
        reportsPayer: true,
        // Cash-Outs through the same PSP's payout API (Efí Pix Send, test/support/fake-efi-payout.ts).
        payout: {
          kind: 'efi-pix-send',
          baseUrl: 'https://psp.test',
          payerKey: 'pagamentos@connectpsp.example',
        },
      },
    ]),
    [`PARTNER_${FAKE_PSP_ISPB}_CLIENT_ID`]: 'connectpsp-test',
    [`PARTNER_${FAKE_PSP_ISPB}_CLIENT_SECRET`]: 'psp-test-secret',
    [`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`]: 'wh-3c1f0e9a7b5d4c2e8f6a1b3d5e7f9a0c',
  };
}
