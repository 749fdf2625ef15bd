/**
 * Period filters (docs/contract.md, Lists, cursors and periods): a plain date or an ISO 8601 timestamp; no
 * offset means America/Sao_Paulo; a plain `from` starts at 00:00:00.000, a plain `to` ends at 23:59:59.999;
 * both bounds inclusive. A `to` without milliseconds covers its whole second.
 */
const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})?$/;

export type Bound = 'from' | 'to';

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

/** Parses one bound to epoch milliseconds; undefined when malformed or not a real date/time. */
export function parseBound(text: string, bound: Bound): number | undefined {
  const plain = PLAIN_DATE.exec(text);
  if (plain) {
    if (!validDate(Number(plain[1]), Number(plain[2]), Number(plain[3]))) return undefined;
    const time = bound === 'from' ? '00:00:00.000' : '23:59:59.999';
    return Date.parse(`${text}T${time}-03:00`);
  }
  const ts = TIMESTAMP.exec(text);
  if (!ts) return undefined;
  const [, y, mo, d, h, mi, s, frac, offset] = ts;
  if (!validDate(Number(y), Number(mo), Number(d))) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  if (offset && offset !== 'Z' && (Number(offset.slice(1, 3)) > 14 || Number(offset.slice(4)) > 59)) {
    return undefined;
  }
  const millis = frac ? frac.slice(1).padEnd(3, '0') : bound === 'to' ? '999' : '000';
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${millis}${offset ?? '-03:00'}`);
  return Number.isNaN(ms) ? undefined : ms;
}

export interface Period {
  from: number;
  to: number;
}

export type PeriodResult = { ok: true; period: Period } | { ok: false; errors: Record<string, string[]> };

/** Both bounds are required on lists, summaries and the statement. */
export function parsePeriod(from: unknown, to: unknown): PeriodResult {
  const errors: Record<string, string[]> = {};
  const parse = (value: unknown, bound: Bound) => {
    if (typeof value !== 'string' || value === '') {
      errors[bound] = [`${bound} is required (YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss)`];
      return undefined;
    }
    const ms = parseBound(value, bound);
    if (ms === undefined) errors[bound] = [`${bound} must be a date YYYY-MM-DD or an ISO 8601 timestamp`];
    return ms;
  };
  const f = parse(from, 'from');
  const t = parse(to, 'to');
  if (f !== undefined && t !== undefined && f > t) errors.to = ['to must not be earlier than from'];
  if (Object.keys(errors).length > 0 || f === undefined || t === undefined) return { ok: false, errors };
  return { ok: true, period: { from: f, to: t } };
}
