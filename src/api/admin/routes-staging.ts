/** The admin resource's staging-only operations (fault injection), bound by the staging entry alone. */
import { bindStagingRoutes } from '../route-table';
import { handleClearFaults, handleInjectFault } from './handlers-faults';
import { adminOperations } from './openapi';

export const adminStagingRoutes = bindStagingRoutes(adminOperations, {
  injectPartnerFault: handleInjectFault,
  clearPartnerFaults: handleClearFaults,
});
