/** GET /cash-in/summary (docs/contract.md, Summaries): counts and amounts per status and bank. */
import type * as v from 'valibot';
import { summaryHandler } from '../../http/transaction-reads';
import { example, type Out } from '../../openapi/examples';
import { summary } from '../../openapi/responses';
import { summaryOperation } from '../../openapi/transaction-operations';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { KIND } from './shared';

const CashInSummary = named(
  'CashInSummary',
  summary(
    ['pending', 'paid', 'refunded', 'cancelled'],
    '`pending` = awaiting payment and expired; `cancelled` counts Cash-Ins cancelled through ' +
      'POST /cash-in/{id}/cancel. Settlement counts paid transactions only.',
  ),
);

export type CashInSummaryBody = v.InferOutput<typeof CashInSummary>;

const cashInSummary: Out<typeof CashInSummary> = {
  from: '2026-11-01T00:00:00.000-03:00',
  to: '2026-11-30T23:59:59.999-03:00',
  currency: 'BRL',
  totals: { pending: { count: 3, amount: 420.5 }, paid: { count: 12, amount: 1803 } },
  settlement: [{ ispb: '31880826', bank: 'Banco Alfa Liquidações S.A.', count: 12, amount: 1803 }],
};

export const summarizeCashIns = route(
  summaryOperation(
    KIND,
    CashInSummary,
    {
      description:
        'Counts and amounts per status bucket and per settlement bank for Cash-Ins created in the period.',
      success: 'The summary.',
    },
    example('November', cashInSummary),
  ),
  summaryHandler('cash-in'),
);
