/**
 * GET /openapi.json, GET /docs and the docs page's script. No authentication: the document is the
 * public contract. Nothing here loads from a CDN, so the page also works on an offline machine.
 *
 * The document and the Redoc bundle are imported on first use: until someone asks for them, no
 * isolate spends start-up time or memory on them.
 */
import { API_VERSION } from '../openapi/version';

export const DOCS_SCRIPT_PATH = '/docs/redoc.standalone.js';

const REDOC_OPTIONS = {
  expandResponses: '200,201,202',
  jsonSampleExpandLevel: 4,
  requiredPropsFirst: true,
  sortPropsAlphabetically: false,
  hideHostname: true,
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ConnectPSP API ${API_VERSION}</title>
<style>body{margin:0}</style>
</head>
<body>
<div id="redoc"></div>
<script src="${DOCS_SCRIPT_PATH}"></script>
<script>Redoc.init('/openapi.json', ${JSON.stringify(REDOC_OPTIONS)}, document.getElementById('redoc'));</script>
</body>
</html>
`;

export async function handleOpenApi(): Promise<Response> {
  const { openApiJson } = await import('./document');
  return new Response(openApiJson(), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
    },
  });
}

/** What a browser opening the gateway's root finds: where the documentation and the console are. */
const LANDING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ConnectPSP gateway</title></head>
<body><h1>ConnectPSP gateway</h1>
<ul>
<li><a href="/docs">API documentation</a> (<a href="/openapi.json">OpenAPI document</a>)</li>
<li><a href="/admin/console">Operator console</a> (sign in with the deployment's ADMIN_TOKEN)</li>
</ul></body></html>
`;

export function handleLanding(): Response {
  return new Response(LANDING_PAGE, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'content-security-policy': "default-src 'none'",
    },
  });
}

export function handleDocs(): Response {
  return new Response(DOCS_PAGE, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300' },
  });
}

export async function handleDocsScript(): Promise<Response> {
  const { redocScript } = await import('../openapi/redoc-asset');
  return new Response(redocScript(), {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
}
