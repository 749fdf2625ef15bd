/**
 * The reads of Cash-Ins and Cash-Outs, one handler each for both kinds: GET by id (docs/contract.md, Lookup
 * by id), the cursor lists (Lists, cursors and periods) and the summaries (Summaries). A kind differs only in
 * its not-found code and in how a status lands in a summary bucket.
 */
import { ledgerOf } from '../../durable-objects/stubs';
import { cashInBucket, summaryBody } from '../domain/summary';
import { ProblemError } from './errors';
import { json, jsonText } from './json';
import { pageInput, pageText, parseListQuery, parsePeriodQuery } from './list-query';
import type { Input } from './pipeline';
import type { ApiRequest } from './request-context';

type Kind = 'cash-in' | 'cash-out';

/** Cash-Ins pool AWAITING_PAYMENT and EXPIRED under `pending`; Cash-Outs count each status apart. */
const BUCKET: Record<Kind, (status: string) => string> = {
  'cash-in': cashInBucket,
  'cash-out': (status) => status.toLowerCase(),
};

const NOT_FOUND = {
  'cash-in': ['CASHIN_NOT_FOUND', 'No Cash-In matches this id'],
  'cash-out': ['CASHOUT_NOT_FOUND', 'No Cash-Out matches this id'],
} as const;

/** Path ids are at most this long; anything longer cannot name a transaction. */
const MAX_ID_LENGTH = 100;

/** The decoded path id, or undefined when it cannot name anything. */
export function pathId(request: ApiRequest, name = 'id'): string | undefined {
  const raw = request.params[name] ?? '';
  try {
    const id = decodeURIComponent(raw);
    return id.length > 0 && id.length <= MAX_ID_LENGTH ? id : undefined;
  } catch {
    return undefined;
  }
}

export function getHandler(kind: Kind) {
  return async ({ request, env, principal }: Input<{ principal: true }>): Promise<Response> => {
    const id = pathId(request);
    const ledger = ledgerOf(env, principal.clientId);
    const found =
      id === undefined ? null : kind === 'cash-in' ? await ledger.getCashIn(id) : await ledger.getCashOut(id);
    if (found === null) {
      const [code, detail] = NOT_FOUND[kind];
      throw new ProblemError(code, detail);
    }
    return jsonText(found); // the ledger rendered the view as JSON text
  };
}

export function listHandler(kind: Kind) {
  return async ({ request, env, principal }: Input<{ principal: true }>): Promise<Response> => {
    const query = await parseListQuery(request, kind, principal.clientId, env.JWT_SECRET);
    const page = await ledgerOf(env, principal.clientId).listTransactions(kind, pageInput(query));
    return jsonText(await pageText(page, query, principal.clientId, env.JWT_SECRET));
  };
}

export function summaryHandler(kind: Kind) {
  return async ({ request, env, principal }: Input<{ principal: true }>): Promise<Response> => {
    const period = parsePeriodQuery(request);
    const { byStatus, settlement } = await ledgerOf(env, principal.clientId).summarizeTransactions(
      kind,
      period.from,
      period.to,
    );
    return json(summaryBody(period, byStatus, settlement, BUCKET[kind]));
  };
}
