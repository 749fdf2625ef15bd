/**
 * What the operator API's operations share (docs/contract.md, Operator API): `Authorization: Bearer`
 * ADMIN_TOKEN or an operator token, 503 while ADMIN_TOKEN is unset; the client and its accounts as the examples show them.
 */
import type { Role } from '../../domain/operators';
import type { OperationSpec } from '../../openapi/operation';

export const TAG = 'Operator';

/** An operator operation; `role` is the least one it needs (docs/contract.md, Operators and the audit trail). */
export const operator = <S extends Omit<OperationSpec, 'tag' | 'auth' | 'role'> & { role: Role }>(
  spec: S,
): S & { tag: string; auth: 'operator' } => ({
  ...spec,
  tag: TAG,
  auth: 'operator',
});

export const ACCOUNTS = [
  {
    number: '10000001-5',
    branch: '0001',
    type: 'TRANSACTIONAL',
    bank: { ispb: '31880826', name: 'Banco Alfa Liquidações S.A.' },
  },
  {
    number: '10000002-3',
    branch: '0001',
    type: 'PROPRIETARY',
    bank: { ispb: '31880826', name: 'Banco Alfa Liquidações S.A.' },
  },
];

export const CLIENT = {
  clientId: '3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
  name: 'Loja Exemplo Ltda',
  merchantName: 'Loja Exemplo',
  merchantCity: 'Ribeirão Preto',
  statementStartDate: '2026-11-01',
  partners: [{ ispb: '31880826', name: 'Banco Alfa Liquidações S.A.' }],
  accounts: ACCOUNTS,
  limits: { daily: 50000 },
  approvalThreshold: 10000,
  blockedPayerDocuments: [],
  payerPolicy: 'ANY' as const,
  applicationTokenActive: true,
  cryptoTokenActive: true,
  createdAt: '2026-11-01T12:00:00.000Z',
  updatedAt: '2026-11-21T12:00:00.000Z',
};

export const noContent = { '204': { description: 'Done.' } };
