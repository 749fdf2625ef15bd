/**
 * Cash-Out request and response examples, typed by the schemas they illustrate so they cannot fall
 * out of shape (and Redocly's no-invalid-media-type-examples checks them against the document).
 */
import { type In, type Out, SETTLEMENT } from '../../openapi/examples';
import type { CashOut, CashOutAccepted } from './openapi-responses';
import type { CreateCashOutSchema } from './schemas';

export const createCashOutRequest: In<typeof CreateCashOutSchema> = {
  amount: 250,
  externalReference: 'saque-1',
  description: 'Saque',
  webhookUrl: 'https://loja.example.com.br/webhooks/pix',
  payee: {
    name: 'Ana Beneficiária',
    document: '12345678909',
    destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' },
  },
};

export const createBankAccountCashOutRequest: In<typeof CreateCashOutSchema> = {
  amount: 99.99,
  externalReference: 'saque-2',
  payee: {
    name: 'Carlos Pereira',
    document: '11222333000181',
    destination: {
      type: 'BANK_ACCOUNT',
      bankAccount: { ispb: '60746948', branch: '1234', account: '56789-0', accountType: 'CACC' },
    },
  },
};

export const cashOutAccepted: Out<typeof CashOutAccepted> = {
  transactionId: '5f0c7c1e-8d4b-4f55-9a51-3f7b1d2c9e10',
  internalCode: 'P4W8Z2R',
  externalReference: 'saque-1',
  status: 'PROCESSING',
  requestedAt: '2026-11-21T10:20:00.000-03:00',
};

export const cashOutCompleted: Out<typeof CashOut> = {
  transactionId: '5f0c7c1e-8d4b-4f55-9a51-3f7b1d2c9e10',
  internalCode: 'P4W8Z2R',
  externalReference: 'saque-1',
  endToEndId: 'E3188082620261121132012345678901',
  status: 'COMPLETED',
  amount: 250,
  payee: {
    name: 'Ana Beneficiária',
    document: '12345678909',
    destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' },
    bankData: { ispb: '18236120', bank: 'Nu Pagamentos S.A.', branch: '0001', account: '9876543-2' },
  },
  settlement: SETTLEMENT,
  requestedAt: '2026-11-21T10:20:00.000-03:00',
  completedAt: '2026-11-21T10:20:03.512-03:00',
};

export const cashOutCancelled: Out<typeof CashOut> = {
  transactionId: '0a8e6d2c-3b1f-4c9a-8e7d-6f5a4b3c2d1e',
  internalCode: 'Q9X3V7T',
  externalReference: 'saque-3',
  status: 'CANCELLED',
  amount: 5000,
  failure: {
    code: 'INSUFFICIENT_FUNDS',
    message: 'The TRANSACTIONAL balance was not enough for this transfer.',
  },
  payee: {
    name: 'Ana Beneficiária',
    document: '12345678909',
    destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f' },
  },
  requestedAt: '2026-11-21T10:25:00.000-03:00',
  cancelledAt: '2026-11-21T10:25:00.412-03:00',
};
