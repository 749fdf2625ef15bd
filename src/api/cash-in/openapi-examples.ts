/**
 * Cash-In request and response examples, typed by the schemas they illustrate so they cannot fall out
 * of shape (and Redocly's no-invalid-media-type-examples checks them against the document).
 */
import { type In, type Out, PAYER_BANK, SETTLEMENT } from '../../openapi/examples';
import type { CashIn, CashInCreated, CashInPage, CashInSummary, RefundAccepted } from './openapi-responses';
import type { CreateCashInSchema } from './schemas';

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
