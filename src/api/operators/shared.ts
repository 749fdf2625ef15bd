/** What the operators' operations share: the operator as the API shows it, without its token. */
import * as v from 'valibot';
import type { OperatorRow } from '../../db/operators';
import { ROLES } from '../../domain/operators';
import { named } from '../../schemas/named';

export const TAG = 'Operator';

export const Operator = named(
  'Operator',
  v.object({
    operatorId: v.string(),
    email: v.string(),
    role: v.picklist(ROLES),
    createdAt: v.pipe(v.string(), v.isoTimestamp()),
  }),
);

export const operatorView = (row: OperatorRow): v.InferOutput<typeof Operator> => ({
  operatorId: row.id,
  email: row.email,
  role: row.role,
  createdAt: new Date(row.createdAt).toISOString(),
});

export const OPERATOR = {
  operatorId: 'op_5b0c2f3e8a9d4c1b',
  email: 'ana@connectpsp.com.br',
  role: 'OPERATOR' as const,
  createdAt: '2026-11-28T12:00:00.000Z',
};
