declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    /** The fake API Pix PSP (test/setup/fake-psp.ts), as the partner's certificate binding. */
    TEST_PSP_CERT: Fetcher;
    /** The second fake PSP, the one offering Pix Automático (test/support/fake-psp-env.ts). */
    TEST_REC_PSP_CERT: Fetcher;
  }
}
