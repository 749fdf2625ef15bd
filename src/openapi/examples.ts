/**
 * Request and response examples, typed by the schemas they illustrate so they cannot fall out of
 * shape (and Redocly's no-invalid-media-type-examples checks them against the document).
 */
import type * as v from 'valibot';
import type { CreateCashInSchema } from '../api/cash-in/schemas';
import type { CreateCashOutSchema } from '../api/cash-out/schemas';
import type {
  CashIn,
  CashInCreated,
  CashInPage,
  CashInSummary,
  CashOut,
  CashOutAccepted,
  RefundAccepted,
} from './responses';
import type { Balance, Rebalance, Statement } from './responses-account';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;
type In<S extends v.GenericSchema> = v.InferInput<S>;

const SETTLEMENT = {
  ispb: '31880826',
  bank: 'Banco Alfa Liquidações S.A.',
  branch: '0001',
  account: '10000001-5',
};
const PAYER_BANK = { ispb: '60701190', bank: 'Itaú Unibanco S.A.', branch: '0001', account: '123456-7' };

export const createCashInRequest: In<typeof CreateCashInSchema> = {
  amount: 150.25,
  externalReference: 'pedido-1',
  expirationInMinutes: 60,
  webhookUrl: 'https://loja.example.com.br/webhooks/pix',
  payer: { name: 'Maria da Silva', document: '12345678909' },
  includeQrCodeImage: false,
};

export const createOpenFinanceCashInRequest: In<typeof CreateCashInSchema> = {
  amount: 89.9,
  externalReference: 'pedido-2',
  payer: { name: 'João Souza', document: '98765432100' },
  openFinance: { redirectUrl: 'https://loja.example.com.br/checkout/retorno' },
};

export const cashInCreated: Out<typeof CashInCreated> = {
  transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
  internalCode: 'K7Q2M9X',
  externalReference: 'pedido-1',
  status: 'AWAITING_PAYMENT',
  amount: 150.25,
  payer: { name: 'Maria da Silva', document: '12345678909' },
  pixData: {
    copyAndPaste:
      '00020101021226760014br.gov.bcb.pix2554api.connectpsp.com.br/pix/qr/3f9a2c1bK7Q2M9X5204000053039865406150.255802BR5920Loja Teste Ltda6009Sao Paulo62070503***6304ABCD',
  },
  requestedAt: '2026-11-21T10:15:30.123-03:00',
};

export const cashInPaid: Out<typeof CashIn> = {
  transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
  internalCode: 'K7Q2M9X',
  externalReference: 'pedido-1',
  endToEndId: 'E6070119020261121131812345678901',
  status: 'PAID',
  amount: 150.25,
  payer: { name: 'Maria da Silva', document: '12345678909', bankData: PAYER_BANK },
  settlement: SETTLEMENT,
  requestedAt: '2026-11-21T10:15:30.123-03:00',
  paidAt: '2026-11-21T10:18:02.481-03:00',
  expiredAt: '2026-11-21T11:15:30.123-03:00',
};

export const cashInAwaiting: Out<typeof CashIn> = {
  transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
  internalCode: 'K7Q2M9X',
  externalReference: 'pedido-1',
  status: 'AWAITING_PAYMENT',
  amount: 150.25,
  payer: { name: 'Maria da Silva', document: '12345678909' },
  requestedAt: '2026-11-21T10:15:30.123-03:00',
  expiredAt: '2026-11-21T11:15:30.123-03:00',
};

export const cashInRefunded: Out<typeof CashIn> = {
  ...cashInPaid,
  endToEndId: 'D3188082620261121140112345678901',
  originalEndToEndId: 'E6070119020261121131812345678901',
  status: 'REFUNDED',
  reason: 'CUSTOMER_REQUEST',
  refundedAt: '2026-11-21T11:01:12.004-03:00',
};

export const cashInPage: Out<typeof CashInPage> = {
  items: [cashInPaid],
  nextCursor: 'eyJsIjoiY2FzaC1pbiJ9.c2lnbmF0dXJl',
};

export const cashInSummary: Out<typeof CashInSummary> = {
  from: '2026-11-01T00:00:00.000-03:00',
  to: '2026-11-30T23:59:59.999-03:00',
  currency: 'BRL',
  totals: { pending: { count: 3, amount: 420.5 }, paid: { count: 12, amount: 1803 } },
  settlement: [{ ispb: '31880826', bank: 'Banco Alfa Liquidações S.A.', count: 12, amount: 1803 }],
};

export const refundAccepted: Out<typeof RefundAccepted> = {
  transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
  internalCode: 'K7Q2M9X',
  externalReference: 'pedido-1',
  endToEndId: 'D3188082620261121140112345678901',
  status: 'PROCESSING',
  amount: 150.25,
  requestedAt: '2026-11-21T11:01:10.950-03:00',
  message: 'Refund sent to the PIX network; CASHIN_REFUNDED follows when the devolution settles',
};

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

export const example = (summary: string, value: unknown) => ({ summary, value });
