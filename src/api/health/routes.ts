/** The health resource's route table: each operation of ./openapi bound to its handler. */
import { bindRoutes } from '../route-table';
import { handleGetIncident, handleHealthPicture, handleListIncidents } from './handlers';
import { healthOperations } from './openapi';

export const healthRoutes = bindRoutes(healthOperations, {
  getPixHealth: handleHealthPicture,
  listPixIncidents: handleListIncidents,
  getPixIncident: handleGetIncident,
});
