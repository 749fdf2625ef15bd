/**
 * Redoc's standalone bundle (npm `redoc`), bundled into the Worker as text (wrangler.toml
 * [[rules]] type = "Text") so /docs loads nothing from a CDN. Its one remote reference, the
 * "API docs by Redocly" logo, is swapped for an inline image: the page makes no third-party
 * request at all, and looks the same offline.
 */
import redocStandalone from 'redoc/bundles/redoc.standalone.js';

const REMOTE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const INLINE_LOGO =
  'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%221%22 height=%221%22/%3E';

let script: Uint8Array | undefined;

/** The script as served, encoded once per isolate. */
export function redocScript(): Uint8Array {
  script ??= new TextEncoder().encode(redocStandalone.replaceAll(REMOTE_LOGO, INLINE_LOGO));
  return script;
}
