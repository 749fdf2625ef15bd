/** The admin resource's staging-only operations (fault injection), bound by the staging entry alone. */
import { bindStagingRoutes } from '../route-table';
import { handleClearFaults, handleInjectFault } from './handlers-faults';
import { partnerFaultOperations } from './partner-faults';

export const adminStagingRoutes = bindStagingRoutes(partnerFaultOperations, {
  injectPartnerFault: handleInjectFault,
  clearPartnerFaults: handleClearFaults,
});
