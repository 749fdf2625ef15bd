/** Operator API bodies (decisions §3). */
import * as v from 'valibot';
import { SETTLEMENT_PARTNERS } from '../partners/catalog';
import { AmountSchema, DocumentSchema, HttpUrlSchema } from './common';

const KNOWN_ISPBS = new Set(SETTLEMENT_PARTNERS.map((p) => p.ispb));

const CalendarDate = v.pipe(
  v.string('must be a date YYYY-MM-DD'),
  v.isoDate('must be a date YYYY-MM-DD'),
  v.check((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'must be a real calendar date'),
);

export const CreateClientSchema = v.object({
  name: v.pipe(v.string('name must be a string'), v.trim(), v.minLength(1, 'name is required'), v.maxLength(100, 'name must have at most 100 characters')),
  statementStartDate: v.optional(CalendarDate),
  partners: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string('each partner must be an ISPB string'),
          v.check((ispb) => KNOWN_ISPBS.has(ispb), 'unknown settlement partner ISPB'),
        ),
        'partners must be an array of ISPBs',
      ),
      v.minLength(1, 'partners must not be empty'),
      v.check((list) => new Set(list).size === list.length, 'partners must not repeat'),
    ),
  ),
});

const OptionalAmount = v.optional(v.nullable(AmountSchema));

export const PatchClientSchema = v.object({
  limits: v.optional(
    v.object(
      {
        perTransaction: OptionalAmount,
        daily: OptionalAmount,
        monthly: OptionalAmount,
        perPayeeDaily: OptionalAmount,
      },
      'limits must be an object',
    ),
  ),
  approvalThreshold: OptionalAmount,
  blockedPayerDocuments: v.optional(v.pipe(v.array(DocumentSchema, 'blockedPayerDocuments must be an array'), v.maxLength(10_000))),
  healthWebhookUrl: v.optional(v.nullable(HttpUrlSchema)),
  rateLimitPerSecond: v.optional(
    v.nullable(v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1), v.maxValue(1_000_000))),
  ),
});

export type PatchClientBody = v.InferOutput<typeof PatchClientSchema>;
