// Validation of the observation shape (docs/contract.md, PIX health). Unknown extra fields are ignored
// (forward compatible); anything the analyzer relies on is checked so a bad queue message or NDJSON line is
// rejected, not guessed.
import { ISPB_RULE, isIspb } from '../../domain/ispb';
import type { Observation, ObservationEvent, Operation } from '../types';

export type ParseResult = { ok: true; value: Observation; atMs: number } | { ok: false; error: string };

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const OPERATIONS = new Set<string>(['CASH_IN', 'CASH_OUT']);
const EVENTS = new Set<string>(['CREATED', 'SETTLED', 'FAILED', 'EXPIRED', 'RETURNED']);

/** Milliseconds of an ISO 8601 timestamp with explicit offset, or NaN. */
export function parseInstant(value: string): number {
  const fast = parseCanonicalUtc(value);
  if (!Number.isNaN(fast)) return fast;
  return ISO_UTC.test(value) ? Date.parse(value) : Number.NaN;
}

// The gateway writes `toISOString()` form (YYYY-MM-DDTHH:MM:SS.sssZ); parsing it by hand, with the
// hour's epoch cached, keeps the per-observation cost in tens of nanoseconds.
let cachedHourPrefix = '';
let cachedHourMs = 0;

function digits(s: string, from: number, count: number): number {
  let v = 0;
  for (let i = from; i < from + count; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return Number.NaN;
    v = v * 10 + c;
  }
  return v;
}

function parseCanonicalUtc(s: string): number {
  if (s.length !== 24 || s.charCodeAt(23) !== 90 /* Z */ || s.charCodeAt(19) !== 46 /* . */)
    return Number.NaN;
  if (s.charCodeAt(16) !== 58 || s.charCodeAt(13) !== 58) return Number.NaN;
  let hourMs: number;
  if (s.startsWith(cachedHourPrefix) && cachedHourPrefix.length === 13) hourMs = cachedHourMs;
  else {
    const prefix = s.slice(0, 13);
    hourMs = Date.parse(`${prefix}:00:00Z`);
    if (Number.isNaN(hourMs) || !ISO_UTC.test(s)) return Number.NaN;
    cachedHourPrefix = prefix;
    cachedHourMs = hourMs;
  }
  const mm = digits(s, 14, 2);
  const ss = digits(s, 17, 2);
  const ms = digits(s, 20, 3);
  if (!(mm < 60 && ss < 60)) return Number.NaN;
  return hourMs + mm * 60_000 + ss * 1000 + ms;
}

function fail(error: string): ParseResult {
  return { ok: false, error };
}

export function parseObservation(input: unknown): ParseResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('not an object');
  const o = input as Record<string, unknown>;
  const { at, clientId, customerId, operation, partnerIspb, institutionIspb, event, failureCode, latencyMs } =
    o;
  if (typeof at !== 'string') return fail('at: required ISO 8601 string');
  const atMs = parseInstant(at);
  if (!Number.isFinite(atMs)) return fail('at: not an ISO 8601 timestamp with offset');
  if (typeof clientId !== 'string' || clientId.length === 0) return fail('clientId: required string');
  if (customerId !== undefined && typeof customerId !== 'string') return fail('customerId: must be a string');
  if (typeof operation !== 'string' || !OPERATIONS.has(operation))
    return fail('operation: CASH_IN or CASH_OUT');
  if (typeof partnerIspb !== 'string' || !isIspb(partnerIspb)) return fail(`partnerIspb: ${ISPB_RULE}`);
  if (institutionIspb !== undefined && !isIspb(institutionIspb)) {
    return fail(`institutionIspb: ${ISPB_RULE} when present`);
  }
  if (typeof event !== 'string' || !EVENTS.has(event)) {
    return fail('event: CREATED, SETTLED, FAILED, EXPIRED or RETURNED');
  }
  if (failureCode !== undefined && (typeof failureCode !== 'string' || failureCode.length === 0)) {
    return fail('failureCode: must be a non-empty string');
  }
  if (
    latencyMs !== undefined &&
    (typeof latencyMs !== 'number' || !Number.isFinite(latencyMs) || latencyMs < 0)
  ) {
    return fail('latencyMs: must be a finite number >= 0');
  }
  const value: Observation = {
    at,
    clientId,
    operation: operation as Operation,
    partnerIspb,
    event: event as ObservationEvent,
  };
  if (customerId !== undefined) value.customerId = customerId;
  if (institutionIspb !== undefined) value.institutionIspb = institutionIspb;
  if (failureCode !== undefined) value.failureCode = failureCode;
  if (latencyMs !== undefined) value.latencyMs = latencyMs;
  return { ok: true, value, atMs };
}
