/** The operator's books views, in the document's order; one file each. */
import type { Route } from '../route-table';
import { getReconciliationReport } from './get-reconciliation-report';
import { listUnappliedReceipts } from './list-unapplied-receipts';

export const adminBooksRoutes: Route[] = [listUnappliedReceipts, getReconciliationReport];
