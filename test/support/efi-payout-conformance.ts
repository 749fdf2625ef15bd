/**
 * The payout adapter (Efí Pix Send) driven through every operation and answer it handles, against
 * the recorded-contract fake, each exchange validated against Efí's SDK schemas (efi-contract.ts).
 * Part of `npm run partner:conformance`; Node only.
 */
import { BcbApiPixPartner } from '../../src/partners/bcb-api-pix/adapter';
import type { PaymentRequest } from '../../src/partners/port';
import { EfiContractValidator } from './efi-contract';
import { BASE, FakeBcbPsp, TOKEN_URL } from './fake-bcb-psp';

export interface PayoutConformance {
  operations: number;
  requests: number;
  invalid: string[];
  failures: string[];
}

const toKey = (id: string, amountCents: number): PaymentRequest => ({
  idempotencyId: id,
  amountCents,
  payee: {
    name: 'Maria Souza',
    document: '12345678909',
    destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'maria@example.com' },
  },
  description: 'Saque 42',
});

const toAccount = (id: string, accountType: string): PaymentRequest => ({
  idempotencyId: id,
  amountCents: 9_999,
  payee: {
    name: 'Loja Exemplo Ltda',
    document: '11222333000181',
    destination: {
      type: 'BANK_ACCOUNT',
      bankAccount: { ispb: '60701190', branch: '0001', account: '12345-6', accountType },
    },
  },
  description: null,
});

export async function runPayoutConformance(): Promise<PayoutConformance> {
  const psp = new FakeBcbPsp();
  const validator = new EfiContractValidator();
  const failures: string[] = [];
  const expect = (what: string, ok: boolean) => ok || failures.push(what);
  const partner = new BcbApiPixPartner({
    ispb: '09089356',
    pixKey: 'cobranca@connectpsp.example',
    baseUrl: BASE,
    tokenUrl: TOKEN_URL,
    clientId: 'client',
    clientSecret: 'secret',
    payout: { kind: 'efi-pix-send', baseUrl: 'https://psp.test', payerKey: 'pagamentos@connectpsp.example' },
    fetcher: async (request) => {
      const sent = request.clone();
      const response = await psp.handle(request);
      if (EfiContractValidator.covers(sent.url)) await validator.exchange(sent, response.clone());
      return response;
    },
    now: () => psp.now,
  });
  const id = (n: number) => `7d0c6f4e-1a2b-4c3d-8e9f-${String(n).padStart(12, '0')}`;
  const idEnvio = (n: number) => id(n).replace(/-/g, '');

  expect('unknown before sending', (await partner.transferStatus(id(1))).state === 'UNKNOWN');
  expect('sent to a key', (await partner.sendPayment(toKey(id(1), 4_250))).ok);
  expect('amount as the decimal string', psp.payout.sent.get(idEnvio(1))?.valor === '42.50');
  expect('pending while EM_PROCESSAMENTO', (await partner.transferStatus(id(1))).state === 'PENDING');
  expect('a repeated send is the same payment', (await partner.sendPayment(toKey(id(1), 4_250))).ok);
  expect('and was made once', psp.payout.sent.size === 1);
  psp.payout.settle(idEnvio(1), true);
  const settled = await partner.transferStatus(id(1));
  expect(
    'REALIZADO settles with the end-to-end id',
    settled.state === 'SETTLED' && settled.endToEndId === psp.payout.sent.get(idEnvio(1)).endToEndId,
  );

  // The daily reconciliation's reads: the Pix sent by period, every page, and the balance.
  const payouts = partner.payouts;
  const from = new Date(psp.now - 60_000);
  const to = new Date(psp.now + 60_000);
  const listed = await payouts?.sentPage(from, to, 0, 1000);
  expect(
    'sent Pix listed by period',
    listed?.ok === true && listed.value.sent.length === 1 && listed.value.sent[0]?.status === 'REALIZADO',
  );
  const past = await payouts?.sentPage(from, to, 1, 1000);
  expect('a page past the end is empty', past?.ok === true && past.value.sent.length === 0);
  psp.payout.balance = '1234.56';
  const balance = await payouts?.balance();
  expect('balance in centavos', balance?.ok === true && balance.value === 123_456);

  expect('sent to an account', (await partner.sendPayment(toAccount(id(2), 'SVGS'))).ok);
  psp.payout.settle(idEnvio(2), false);
  const failed = await partner.transferStatus(id(2));
  expect('NAO_REALIZADO fails', failed.state === 'FAILED' && failed.failureCode === 'PAYEE_BANK_REJECTED');

  const before = validator.requests;
  const payment = await partner.sendPayment(toAccount(id(3), 'PAYMENT'));
  expect(
    'a payment account is refused before anything is sent',
    !payment.ok && payment.failureCode === 'PAYEE_ACCOUNT_INVALID' && validator.requests === before,
  );

  const refusals: [number, string, string, boolean][] = [
    [400, 'chave_nao_pertence_ao_documento', 'PAYEE_DOCUMENT_MISMATCH', false],
    [422, 'pagamento_negado', 'FRAUD_SUSPECTED', false],
    [400, 'documento_bloqueado', 'PROVIDER_UNAVAILABLE', false],
  ];
  for (const [i, [status, nome, code, retryable]] of refusals.entries()) {
    psp.payout.failNext(status, nome);
    const r = await partner.sendPayment(toKey(id(10 + i), 100));
    expect(`${status} ${nome} → ${code}`, !r.ok && r.failureCode === code && r.retryable === retryable);
  }
  psp.payout.failNext(500, 'erro_aplicacao');
  expect(
    '500 erro_aplicacao retried under the same idEnvio',
    (await partner.sendPayment(toKey(id(20), 100))).ok,
  );
  for (let i = 0; i < 3; i++) psp.payout.failNext(500, 'erro_aplicacao');
  const down = await partner.sendPayment(toKey(id(21), 100));
  expect(
    '500 three times: retryable PROVIDER_UNAVAILABLE',
    !down.ok && down.failureCode === 'PROVIDER_UNAVAILABLE' && down.retryable,
  );
  return {
    operations: validator.operations.size,
    requests: validator.requests,
    invalid: validator.invalid,
    failures,
  };
}
