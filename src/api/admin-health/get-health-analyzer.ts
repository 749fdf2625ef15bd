/** GET /admin/health/analyzer: what the PIX health analyzer has counted and whether it can judge yet. */

import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { operator } from '../admin/shared';
import { route } from '../route-table';
import { analyzerState } from './handlers';
import { AnalyzerState, STATE } from './shared';

async function handleAnalyzerState({ env }: Input): Promise<Response> {
  return json(await analyzerState(env));
}

export const getHealthAnalyzer = route(
  operator({
    role: 'VIEWER',
    method: 'get',
    path: '/admin/health/analyzer',
    operationId: 'getHealthAnalyzer',
    summary: "The PIX health analyzer's state",
    success: {
      '200': {
        description: 'What the analyzer has counted and whether it can judge yet.',
        schema: AnalyzerState,
        examples: { warm: example('A warm analyzer', STATE) },
      },
    },
  }),
  handleAnalyzerState,
);
