/** Pix Automático test helpers: a valid recurrence body, its first due date 20 days from today. */
import { addDays } from '../../src/domain/recurrence';
import { brtDate } from '../../src/domain/time';

let n = 0;
export const recurrenceBody = (overrides: Record<string, unknown> = {}) => ({
  externalReference: `assinatura-${Date.now()}-${n++}`,
  frequency: 'MONTHLY',
  startDate: addDays(brtDate(Date.now()), 20),
  amount: 29.9,
  retryPolicy: 'THREE_IN_SEVEN_DAYS',
  contract: 'PLANO-MENSAL-42',
  payer: { name: 'Maria da Silva', document: '12345678909' },
  ...overrides,
});
