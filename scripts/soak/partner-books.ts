/**
 * The sandbox partners' side of the story: their books are the D1 table sandbox_transfers
 * (src/db/schema.ts). Read through any D1-shaped binding — miniflare's from Node, env.DB inside
 * workerd — for the given idempotency ids only (tests share D1 with other test files).
 */
import type { PartnerBooks } from './collect';
import type { PartnerTransfer } from './snapshot';

export interface D1Like {
  prepare(query: string): {
    bind(...values: unknown[]): { all<T = Record<string, unknown>>(): Promise<{ results: T[] }> };
  };
}

interface Row {
  ispb: string;
  idempotency_id: string;
  kind: 'PAYMENT' | 'DEVOLUTION';
  amount: number;
  outcome: 'SETTLED' | 'FAILED';
  failure_code: string | null;
  end_to_end_id: string | null;
  requests: number;
}

/** D1 binds at most 100 parameters per statement. */
const CHUNK = 90;

export function d1PartnerBooks(db: D1Like): PartnerBooks {
  return async (ids) => {
    const out: PartnerTransfer[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const { results } = await db
        .prepare(
          'SELECT ispb, idempotency_id, kind, amount, outcome, failure_code, end_to_end_id, requests ' +
            `FROM sandbox_transfers WHERE idempotency_id IN (${chunk.map(() => '?').join(', ')})`,
        )
        .bind(...chunk)
        .all<Row>();
      for (const r of results) {
        out.push({
          ispb: r.ispb,
          idempotencyId: r.idempotency_id,
          kind: r.kind,
          amountCents: r.amount,
          outcome: r.outcome,
          ...(r.failure_code !== null && { failureCode: r.failure_code }),
          ...(r.end_to_end_id !== null && { endToEndId: r.end_to_end_id }),
          requests: r.requests,
        });
      }
    }
    return out;
  };
}
