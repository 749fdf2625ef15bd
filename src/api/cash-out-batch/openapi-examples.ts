/** Batch Cash-Out examples, typed by the schemas they illustrate. */
import type { In, Out } from '../../openapi/examples';
import type { CashOutBatch, CashOutBatchAccepted } from './openapi-responses';
import type { CreateCashOutBatchSchema } from './schemas';

export const createCashOutBatchRequest: In<typeof CreateCashOutBatchSchema> = {
  items: [
    {
      amount: 150,
      externalReference: 'premio-jogo-42-1',
      description: 'Prêmio',
      payee: {
        name: 'Ana Beneficiária',
        document: '12345678909',
        destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' },
      },
    },
    {
      amount: 75.5,
      externalReference: 'premio-jogo-42-2',
      payee: {
        name: 'Carlos Pereira',
        document: '11222333000181',
        destination: {
          type: 'BANK_ACCOUNT',
          bankAccount: { ispb: '60746948', branch: '1234', account: '56789-0', accountType: 'CACC' },
        },
      },
    },
  ],
};

export const cashOutBatchAccepted: Out<typeof CashOutBatchAccepted> = {
  batchId: '0b7e4c52-1a7f-4d0e-9c3b-2f6a8d1e5b90',
  createdAt: '2026-11-27T09:00:00.000-03:00',
  count: 2,
  amount: 225.5,
  items: [
    {
      index: 0,
      transactionId: '5f0c7c1e-8d4b-4f55-9a51-3f7b1d2c9e10',
      internalCode: 'K7Q2M9X',
      externalReference: 'premio-jogo-42-1',
      status: 'PROCESSING',
    },
    {
      index: 1,
      transactionId: '9a3d6b2f-4c1e-4e8a-b7d5-0f2c3a4b5c6d',
      internalCode: 'P3W8R2T',
      externalReference: 'premio-jogo-42-2',
      status: 'PROCESSING',
    },
  ],
};

export const cashOutBatch: Out<typeof CashOutBatch> = {
  batchId: '0b7e4c52-1a7f-4d0e-9c3b-2f6a8d1e5b90',
  createdAt: '2026-11-27T09:00:00.000-03:00',
  count: 2,
  amount: 225.5,
  byStatus: { PROCESSING: 0, PENDING: 0, COMPLETED: 1, CANCELLED: 1, REFUNDED: 0 },
};
