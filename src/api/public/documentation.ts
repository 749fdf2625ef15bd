/**
 * GET /, GET /openapi.json, GET /docs and the docs page's script (src/api/docs.ts serves them): the
 * document of this API, its rendering, and a root that points to them.
 */
import { handleDocs, handleDocsScript, handleLanding, handleOpenApi } from '../docs';
import { route } from '../route-table';
import { HTML } from './shared';

export const getOpenApiDocument = route(
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    tag: 'Documentation',
    auth: 'none',
    success: { '200': { description: 'OpenAPI 3.1 document.', schema: { type: 'object' } } },
  },
  handleOpenApi,
);

export const getDocsPage = route(
  {
    method: 'get',
    path: '/docs',
    operationId: 'getDocsPage',
    summary: 'Readable API documentation',
    description:
      'Renders this document with Redoc; every asset is served by the gateway itself (works offline).',
    tag: 'Documentation',
    auth: 'none',
    success: { '200': { description: 'The docs page.', contentType: 'text/html', schema: HTML } },
  },
  handleDocs,
);

export const getDocsScript = route(
  {
    method: 'get',
    path: '/docs/redoc.standalone.js',
    operationId: 'getDocsScript',
    summary: 'Redoc script used by the docs page',
    tag: 'Documentation',
    auth: 'none',
    success: {
      '200': { description: 'JavaScript.', contentType: 'text/javascript', schema: { type: 'string' } },
    },
  },
  handleDocsScript,
);

export const getLandingPage = route(
  {
    method: 'get',
    path: '/',
    operationId: 'getLandingPage',
    summary: 'Where the documentation and the operator console are',
    tag: 'Documentation',
    auth: 'none',
    success: {
      '200': {
        description: 'A small page linking /docs, /openapi.json and /admin/console.',
        contentType: 'text/html',
        schema: HTML,
      },
    },
  },
  handleLanding,
);
