/** GET /cash-out/summary (docs/contract.md, Summaries): counts and amounts per status and bank. */
import type * as v from 'valibot';
import { summaryHandler } from '../../http/transaction-reads';
import { example } from '../../openapi/examples';
import { summary } from '../../openapi/responses';
import { summaryOperation } from '../../openapi/transaction-operations';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { KIND } from './shared';

const CashOutSummary = named(
  'CashOutSummary',
  summary(
    ['processing', 'pending', 'completed', 'cancelled', 'refunded'],
    'Keys are the Cash-Out statuses in lowercase. Settlement counts completed transactions only.',
  ),
);

export type CashOutSummaryBody = v.InferOutput<typeof CashOutSummary>;

export const summarizeCashOuts = route(
  summaryOperation(
    KIND,
    CashOutSummary,
    { success: 'The summary; failed Cash-Outs count under `cancelled`.' },
    example('November', {
      from: '2026-11-01T00:00:00.000-03:00',
      to: '2026-11-30T23:59:59.999-03:00',
      currency: 'BRL',
      totals: { completed: { count: 8, amount: 2200 }, cancelled: { count: 1, amount: 5000 } },
      settlement: [{ ispb: '31880826', bank: 'Banco Alfa Liquidações S.A.', count: 8, amount: 2200 }],
    }),
  ),
  summaryHandler('cash-out'),
);
