import type { OperationSpec } from '../../openapi/operation';
import { locatorParameter } from '../../openapi/parameters';
import { Jwks } from '../admin/openapi-responses';

const HTML = { type: 'string', description: 'An HTML page.' };
const REDIRECT = {
  description: 'Back to the integrator: `redirectUrl` with `transactionId` and `status` query parameters.',
  headers: {
    Location: { description: 'Where the browser goes next.', schema: { type: 'string', format: 'uri' } },
  },
};

export const publicOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/pix/qr/{locator}',
    operationId: 'getChargePayload',
    summary: 'Charge payload at the BR Code location',
    description:
      "Sandbox partner only. What a wallet fetches after reading a sandbox Cash-In's dynamic BR Code: the charge as the BCB API Pix defines it (`cob`: calendario, txid, status, devedor, valor, chave), as a compact JWS signed with ES256. Verify it with the key at `/.well-known/jwks.json` (the `jku` header). `{locator}` is the client's random location key and the charge's internalCode; it carries no client id. A real partner's charge (a declared `bcb-api-pix` partner) is not served here: its BR Code is the PSP's own `pixCopiaECola`, whose location is the PSP's, and a payer's bank reads and verifies the payload there against that PSP's certificate; this path answers 404 for it.",
    tag: 'PIX location',
    auth: 'none',
    parameters: [locatorParameter],
    success: {
      '200': {
        description: 'The signed charge.',
        contentType: 'application/jose',
        schema: {
          type: 'string',
          pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
          description: 'Compact JWS.',
        },
      },
    },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'getJwks',
    summary: 'Key set that verifies charge payloads',
    description:
      "Sandbox partner only: the key of the gateway-hosted charge payloads. A real partner's payloads are signed by its PSP, with the PSP's certificate.",
    tag: 'PIX location',
    auth: 'none',
    success: { '200': { description: 'The public keys (ES256).', schema: Jwks } },
  },
  ...openFinanceOperations(),
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    tag: 'Documentation',
    auth: 'none',
    success: { '200': { description: 'OpenAPI 3.1 document.', schema: { type: 'object' } } },
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getDocsPage',
    summary: 'Readable API documentation',
    description:
      'Renders this document with Redoc; every asset is served by the gateway itself (works offline).',
    tag: 'Documentation',
    auth: 'none',
    success: { '200': { description: 'The docs page.', contentType: 'text/html', schema: HTML } },
  },
  {
    method: 'get',
    path: '/docs/redoc.standalone.js',
    operationId: 'getDocsScript',
    summary: 'Redoc script used by the docs page',
    tag: 'Documentation',
    auth: 'none',
    success: {
      '200': { description: 'JavaScript.', contentType: 'text/javascript', schema: { type: 'string' } },
    },
  },
];

function openFinanceOperations(): OperationSpec[] {
  const common = {
    tag: 'Open finance (staging)',
    auth: 'none' as const,
    stagingOnly: true,
    parameters: [locatorParameter],
  };
  return [
    {
      ...common,
      method: 'get',
      path: '/open-finance/{locator}',
      operationId: 'openFinancePage',
      summary: "The payer bank's consent page",
      description:
        "`openFinanceData.paymentUrl` opens this page, which plays the payer bank's consent screen. Staging and the sandbox partner only: on a real partner POST /cash-in with `openFinance` answers 422 RULE_VIOLATION before the PSP is asked, because a PSP's API Pix registers charges for Pix payment, not payment initiation.",
      success: {
        '200': {
          description: 'Consent page with Authorize and Cancel buttons.',
          contentType: 'text/html',
          schema: HTML,
        },
        '410': {
          description: 'The charge is no longer AWAITING_PAYMENT.',
          contentType: 'text/html',
          schema: HTML,
        },
      },
      errors: ['NOT_FOUND'],
    },
    {
      ...common,
      method: 'post',
      path: '/open-finance/{locator}/authorize',
      operationId: 'openFinanceAuthorize',
      summary: 'Authorize the payment',
      description:
        'Pays the Cash-In through the same settlement path as the network, then redirects to `redirectUrl`.',
      success: {
        '303': REDIRECT,
        '422': {
          description: 'Payment not made (an HTML page saying why).',
          contentType: 'text/html',
          schema: HTML,
        },
      },
      errors: ['NOT_FOUND'],
    },
    {
      ...common,
      method: 'post',
      path: '/open-finance/{locator}/decline',
      operationId: 'openFinanceDecline',
      summary: 'Decline the payment',
      description: 'Redirects to `redirectUrl` with `status=DECLINED`; the Cash-In stays AWAITING_PAYMENT.',
      success: { '303': REDIRECT },
      errors: ['NOT_FOUND'],
    },
  ];
}
