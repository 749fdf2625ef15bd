/**
 * The OpenAPI 3.1 document of the gateway, assembled from operation declarations (the routed ones:
 * src/api/document.ts) and the valibot schemas.
 */

import { components } from './components';
import { defaultsInWords } from './defaults';
import type { Schema } from './json-schema';
import { type OperationSpec, operationObject, schemasOf } from './operation';
import { ApplicationTokenProblem, Problem, SharedComponents } from './problem-schemas';
import { API_VERSION } from './version';
import { WEBHOOK_SCHEMAS, webhooks } from './webhooks';

const DESCRIPTION = [
  `ConnectPSP is a gateway for Brazilian instant payments (PIX): receive payments (Cash-In, by ` +
    `BR Code or open finance), refund them, send payments (Cash-Out), list and summarize them, ` +
    `read account statements and balances, and move money between your accounts. All amounts are ` +
    `BRL.`,
  `**Authentication.** Get a JWT from \`POST /auth/token\`, then send \`Authorization: Bearer ` +
    `<JWT>\` and \`ApplicationToken: <GUID>\` on every call. Financial operations (Cash-Out, ` +
    `refund, rebalance) also need \`DigitalSignature\`: the lowercase hex HMAC-SHA256 of the JWT ` +
    `exactly as sent (key: your CryptoToken). Checks run in this order: JWT, ApplicationToken, ` +
    `request budget, body validation, DigitalSignature.`,
  `**Rate limits.** When the operator sets a request budget for your client (requests per ` +
    `second, bursts up to one second's worth), each authenticated request and each \`POST ` +
    `/auth/token\` for your client spends from it; beyond it the answer is 429 \`RATE_LIMITED\` ` +
    `with \`Retry-After\` (whole seconds) and nothing is done, so the request (with the same ` +
    `idempotency key) can be sent again after that wait.`,
  `**Conventions.** A field with no value is omitted, never null. Cash-In, Cash-Out, summary ` +
    `and statement timestamps carry the offset -03:00 (America/Sao_Paulo); operator timestamps ` +
    `are UTC. Errors are RFC 7807 Problem Details (\`application/problem+json\`); handle them on ` +
    `\`code\`. Two documented exceptions: the JWT 401 has no body (reason in ` +
    `\`WWW-Authenticate\`), the ApplicationToken 401 has no \`code\`; the login 401 is a plain ` +
    `\`{message}\`. An unknown path answers 404 \`NOT_FOUND\`, a known path with another method ` +
    `405 \`METHOD_NOT_ALLOWED\` with \`Allow\`.`,
  `**Events.** Transaction events are POSTed to the \`webhookUrl\` of the creating request, ` +
    `signed with Standard Webhooks headers (\`webhook-id\`, \`webhook-timestamp\`, ` +
    `\`webhook-signature\`); see *Webhooks*.`,
].join('\n\n');

const TAGS = [
  ['Authentication', 'Access tokens.'],
  ['Cash-In', 'Receive payments: BR Code (copy and paste, QR) or open finance; refunds.'],
  ['Cash-Out', 'Send payments to a PIX key or bank account; accepted asynchronously.'],
  ['Pix Automático', 'Recurrences a payer authorizes once; each cycle is charged as a Cash-In.'],
  ['Account', 'Statement, consolidated balance and rebalancing between your accounts.'],
  ['Sandbox', "Staging only: play the payment network's side."],
  ['PIX location', 'What wallets fetch after reading a BR Code.'],
  ['Open finance (staging)', "The payer bank's consent page of the open-finance flow, simulated in staging."],
  ['Documentation', 'This document and its rendering.'],
  ['Operator', 'Operator API: onboarding, credentials, approvals, deliveries, fault injection.'],
  ['Settlement partners', 'Callbacks from real banks (API Pix webhooks); not for integrators.'],
].map(([name, description]) => ({ name, description }));

const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from POST /auth/token (3600 s).',
  },
  applicationToken: {
    type: 'apiKey',
    in: 'header',
    name: 'ApplicationToken',
    description: 'Fixed GUID issued at onboarding that identifies the integration.',
  },
  digitalSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'DigitalSignature',
    description:
      'Lowercase hex of HMAC-SHA256(key = UTF-8 bytes of your CryptoToken, message = UTF-8 bytes of the JWT exactly as sent after `Bearer `).',
  },
  partnerMutualTls: {
    type: 'mutualTLS',
    description:
      "A settlement partner's client certificate, verified by Cloudflare at the edge and matched to the partner's configured subject (and issuer) DN.",
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Operator API: `Bearer <ADMIN_TOKEN>`. While ADMIN_TOKEN is unset the operator API answers 503.',
  },
};

function paths(
  operations: readonly OperationSpec[],
  shared: SharedComponents,
): Record<string, Record<string, Schema>> {
  const out: Record<string, Record<string, Schema>> = {};
  for (const op of operations) {
    const item = out[op.path] ?? {};
    if (item[op.method]) throw new Error(`duplicate operation ${op.method.toUpperCase()} ${op.path}`);
    item[op.method] = operationObject(op, shared);
    out[op.path] = item;
  }
  return out;
}

/** The document of these operations (src/api/document.ts passes the routed ones). */
export function assembleDocument(operations: readonly OperationSpec[]): Schema {
  const shared = new SharedComponents();
  const schemas = components([
    Problem,
    ApplicationTokenProblem,
    ...WEBHOOK_SCHEMAS,
    ...operations.flatMap(schemasOf),
  ]);
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'ConnectPSP PIX gateway API',
      version: API_VERSION,
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-ConnectPSP-Proprietary' },
    },
    servers: [{ url: '/', description: 'The deployment serving this document.' }],
    tags: TAGS,
    security: [{ bearerAuth: [], applicationToken: [] }],
    paths: paths(operations, shared),
    webhooks: webhooks(),
    components: {
      schemas: defaultsInWords(schemas) as Record<string, Schema>,
      responses: shared.responses,
      examples: shared.examples,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
  const missing = [...JSON.stringify(document).matchAll(/"#\/components\/schemas\/(\w+)"/g)]
    .map((m) => m[1] as string)
    .filter((name) => !(name in schemas));
  if (missing.length > 0) throw new Error(`$ref to schemas the document lacks: ${missing.join(', ')}`);
  return document;
}
