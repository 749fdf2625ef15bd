/** The PIX health resource's operations, in the document's order; one file each. */
import type { Route } from '../route-table';
import { getPixHealth } from './get-pix-health';
import { getPixIncident } from './get-pix-incident';
import { listPixIncidents } from './list-pix-incidents';

export const healthRoutes: Route[] = [getPixHealth, listPixIncidents, getPixIncident];
