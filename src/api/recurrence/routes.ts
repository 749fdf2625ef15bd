/** The recurrence resource's operations (Pix Automático), in the document's order; one file each. */
import type { Route } from '../route-table';
import { cancelRecurrence } from './cancel-recurrence';
import { chargeRecurrence } from './charge-recurrence';
import { createRecurrence } from './create-recurrence';
import { getRecurrence } from './get-recurrence';
import { listRecurrenceCharges } from './list-recurrence-charges';
import { listRecurrences } from './list-recurrences';

export const recurrenceRoutes: Route[] = [
  createRecurrence,
  listRecurrences,
  getRecurrence,
  cancelRecurrence,
  chargeRecurrence,
  listRecurrenceCharges,
];
