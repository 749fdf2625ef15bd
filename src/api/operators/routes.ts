/** The operators and their audit trail, in the document's order; one file each. */
import type { Route } from '../route-table';
import { createOperator } from './create-operator';
import { deleteOperator } from './delete-operator';
import { listAuditRecords } from './list-audit';
import { listOperators } from './list-operators';

export const operatorsRoutes: Route[] = [createOperator, listOperators, deleteOperator, listAuditRecords];
