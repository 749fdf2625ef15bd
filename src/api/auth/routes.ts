/** The auth resource's route table: each operation of ./openapi bound to its handler. */
import { bindRoutes } from '../route-table';
import { handleIssueToken } from './handlers';
import { authOperations } from './openapi';

export const authRoutes = bindRoutes(authOperations, { issueToken: handleIssueToken });
