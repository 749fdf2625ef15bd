/** Account response examples, typed by the schemas they illustrate so they cannot fall out of shape. */
import type { Out } from '../../openapi/examples';
import type { Balance, Rebalance, Statement } from './openapi-responses';

export const statement: Out<typeof Statement> = {
  account: {
    number: '10000001-5',
    branch: '0001',
    type: 'TRANSACTIONAL',
    bank: { ispb: '31880826', name: 'Banco Alfa Liquidações S.A.' },
  },
  period: { from: '2026-11-01T00:00:00.000-03:00', to: '2026-11-30T23:59:59.999-03:00', order: 'asc' },
  items: [
    {
      id: 'LE0000000001',
      date: '2026-11-21T10:18:02.481-03:00',
      direction: 'CREDIT',
      type: 'PIX_IN',
      typeRaw: 'PIX_IN',
      amount: 150.25,
      balanceAfter: 1150.25,
      description: 'PIX recebido pedido-1',
      endToEndId: 'E6070119020261121131812345678901',
    },
  ],
};

export const balance: Out<typeof Balance> = {
  currency: 'BRL',
  asOf: '2026-11-21T12:00:00.000-03:00',
  totals: { transactional: 1150.25, proprietary: 5000, total: 6150.25 },
  partners: [
    {
      ispb: '31880826',
      bank: 'Banco Alfa Liquidações S.A.',
      accounts: [
        { number: '10000001-5', branch: '0001', type: 'TRANSACTIONAL', balance: 1150.25, available: 900.25 },
        { number: '10000002-3', branch: '0001', type: 'PROPRIETARY', balance: 5000, available: 5000 },
      ],
    },
  ],
};

export const rebalance: Out<typeof Rebalance> = {
  rebalanceId: 'RB0F1E2D3C4B5A69788796A5B4C3D2E1F0',
  direction: 'TOP_UP',
  amount: 1000,
  ispb: '31880826',
  from: { number: '10000002-3', type: 'PROPRIETARY' },
  to: { number: '10000001-5', type: 'TRANSACTIONAL' },
  status: 'COMPLETED',
  createdAt: '2026-11-21T12:05:00.000-03:00',
};
