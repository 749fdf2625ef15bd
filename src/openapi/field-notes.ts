/**
 * What the request schemas cannot say by themselves: the meaning of their fields (docs/contract.md:
 * Operator API, Sandbox, Amounts and documents, BR Code, …), added to the converted JSON Schemas as property
 * descriptions, and readable wording for custom checks whose error message would read oddly as documentation.
 */

import { CreateClientSchema } from '../api/admin/schemas';
import { CreateCashOutSchema } from '../api/cash-out/schemas';
import { PARTNER_TIMEOUT_MS } from '../partners/timeout';
import { describeCheck, type Schema } from './json-schema';

const [pixDestination] = CreateCashOutSchema.entries.payee.entries.destination.options;
describeCheck(
  pixDestination.pipe[1],
  'pixKey must match pixKeyType: CPF 11 digits; CNPJ 14 digits; EMAIL an e-mail address of at most 77 characters; PHONE +55 and 10 or 11 digits; EVP a UUID',
);
describeCheck(
  CreateClientSchema.entries.partners.wrapped.pipe[0].item.pipe[2],
  'The ISPB of one of the configured settlement partners',
);

const NOTES: Record<string, Record<string, string>> = {
  CreateCashIn: {
    amount: 'BRL, at least 0.01.',
    externalReference:
      'Your own reference, unique per client (409 DUPLICATED_EXTERNAL_REFERENCE otherwise); also accepted as `{id}` on GET /cash-in/{id}.',
    expirationInMinutes: 'Payment window in minutes; `expiredAt` = creation + this.',
    webhookUrl:
      'Receives the events of this Cash-In. Production: https to a public host only; staging also allows http://127.0.0.1 and localhost.',
    payer:
      "Who pays: `name` and `document` (a CPF of 11 digits or a CNPJ of 14 characters, 12 digits or letters then 2 digits, the alphanumeric CNPJ included; no separators; letters read upper-case; check digits verified). A real partner's PSP receives it as the charge's `devedor` and shows it to the payer.",
    openFinance:
      'When present, selects the open-finance flow; `redirectUrl` is where the payer goes after paying. Sandbox partner only (staging): on a real partner 422 RULE_VIOLATION.',
    includeQrCodeImage: 'When true the answer includes the QR code as a Base64 PNG.',
  },
  CreateCashOut: {
    amount: 'BRL, at least 0.01. Balance and limits are checked after the 202.',
    externalReference:
      'Unique per client even when the earlier Cash-Out was cancelled (send a new one to retry); also accepted as `{id}` on GET /cash-out/{id}.',
    description: "May appear on the payee's bank statement.",
    webhookUrl: 'Receives CASHOUT_COMPLETED, CASHOUT_FAILED and CASHOUT_REFUNDED.',
    payee:
      'Who receives: `name`, `document` (CPF 11 digits or CNPJ 14 characters, alphanumeric included, no separators, letters read upper-case) and `destination` (a CNPJ Pix key likewise; it identifies one payee however its letters are written).',
  },
  Refund: {
    reason: 'Why the money goes back; echoed as the Cash-In `reason` once REFUNDED.',
    description: 'Internal audit note; not sent to the payer.',
  },
  Rebalance: {
    amount:
      'BRL with at most 2 decimal places; must be greater than zero (422 INVALID_AMOUNT after the signature check).',
    ispb: "Settlement partner whose two accounts are used; default: the client's first partner.",
  },
  SandboxPay: {
    payer: 'Who pays; every field has a default.',
    deferEndToEndId:
      'Simulates a partner that confirms the payment before it knows the endToEndId (refunds then answer 422 MISSING_E2E for a moment).',
  },
  CreateClient: {
    name: 'Legal or trade name. Without a merchantName it is BR Code field 59, so it must keep a character a BR Code can carry (400 naming it otherwise).',
    merchantName:
      'BR Code field 59 (default: name). Rendered transliterated (accents removed, upper case, other characters dropped) and cut to 25 characters; something must remain, else 400 naming it.',
    merchantCity:
      'BR Code field 60 (default SAO PAULO). Rendered transliterated and cut to 15 characters; something must remain, else 400 naming it.',
    statementStartDate: 'First day with statement data; default today in America/Sao_Paulo.',
    partners:
      'ISPBs of the settlement partners to open accounts at. Default: in staging the sandbox partners, in production every partner the deployment declares (none declared: 503 SERVICE_UNAVAILABLE). Production never accepts a sandbox partner.',
  },
  PatchClient: {
    limits: 'Withdrawal limits in BRL (`null` removes one); exceeding them ends a Cash-Out CANCELLED.',
    approvalThreshold:
      'Cash-Outs at or above this amount wait for operator approval (PENDING); `null` removes it.',
    blockedPayerDocuments: 'Payers whose Cash-Ins are refunded automatically with PAYER_NOT_ALLOWED.',
    healthWebhookUrl: 'Receives PIX_INCIDENT_* events; `null` removes it.',
    merchantName:
      'BR Code field 59 (default: the client name). Rendered transliterated (accents removed, upper case, other characters dropped) and cut to 25 characters; something must remain, else 400 naming it.',
    merchantCity:
      'BR Code field 60 (default SAO PAULO). Rendered transliterated and cut to 15 characters; something must remain, else 400 naming it.',
    rateLimitPerSecond:
      "Requests per second the client may make (bursts up to one second's worth, refilled continuously); beyond it every authenticated request and POST /auth/token for this client answers 429 `RATE_LIMITED` with `Retry-After`. A change applies everywhere within 2 s; `null` (the default) removes the limit.",
  },
  ArchiveRequest: {
    before:
      'ISO 8601 instant with offset: every closed transaction settled before it is archived, whatever the retention window.',
  },
  ArchiveResult: {
    archivedTransactions: 'How many transactions this call moved to the archive (0 when none was eligible).',
  },
  PartnerFaultRequest: {
    operation: 'Which traffic of the sandbox partner misbehaves.',
    failureRate:
      'Share of operations that fail, 0 to 1: Cash-Out payments for CASH_OUT, refund devolutions for CASH_IN.',
    failureCode:
      'Failure code of the failures: Cash-Out payments (CASH_OUT), or refund devolutions (CASH_IN; default PROVIDER_UNAVAILABLE).',
    latencyMs: `Extra latency per call to the partner. Beyond ${PARTNER_TIMEOUT_MS} ms the gateway stops waiting: a charge registration answers 422 RULE_VIOLATION; a payment or devolution may still have reached the partner, so the gateway asks it, then sends again under the same idempotency id, and the partner makes it once.`,
    minutes: 'How long the fault lasts.',
  },
  PartnerWebhookRequest: {
    baseUrl:
      "This gateway's public origin as the partner reaches it. The partner is told `{baseUrl}/partners/{ispb}/webhook` (mTLS) or `{baseUrl}/partners/{ispb}/webhook/{secret}` (secret path) and posts to it + `/pix`.",
  },
  ImportObservationsRequest: {
    observations:
      'Observations (the shape of the health queue), each with a unique `id` (an id already counted is skipped, so a repeated import is harmless). Older than the analyzer has seen, they bootstrap it: recent live traffic waits until the history stops arriving.',
  },
  AdvanceAnalyzerRequest: {
    until: 'Every 5-minute window that ends at or before this instant is closed now.',
  },
};

/** Adds the field descriptions to converted component schemas (a `$ref` keeps its target's rules). */
export function withFieldNotes(schemas: Record<string, Schema>): Record<string, Schema> {
  for (const [name, notes] of Object.entries(NOTES)) {
    const properties = schemas[name]?.properties as Record<string, Schema> | undefined;
    if (!properties) throw new Error(`field notes for unknown schema ${name}`);
    for (const [field, description] of Object.entries(notes)) {
      const property = properties[field];
      if (!property) throw new Error(`field note for unknown field ${name}.${field}`);
      properties[field] = { ...property, description };
    }
  }
  return schemas;
}
