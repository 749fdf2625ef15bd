/** GET /docs renders the document with assets served by the gateway itself: nothing from a CDN. */
import { describe, expect, it } from 'vitest';
import { call } from '../support/harness';

describe('GET /docs', () => {
  it('is an HTML page whose every asset is same-origin and served', async () => {
    const res = await call('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"|Redoc\.init\('([^']+)'/g)].map(
      (m) => m[1] ?? m[2],
    );
    expect(refs).toEqual(['/docs/redoc.standalone.js', '/openapi.json']);
    expect(html).not.toMatch(/https?:\/\//);
    for (const path of refs) expect((await call(path as string)).status, path).toBe(200);
  });

  it('serves the Redoc bundle from npm as JavaScript, needing no network', async () => {
    const res = await call('/docs/redoc.standalone.js');
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const script = await res.text();
    expect(script.length).toBeGreaterThan(500_000);
    expect(script).toContain('Redoc');
    const remote = script.match(
      /["'`](?:https?:)?\/\/[^"'`]*\.(?:js|css|svg|png|woff2?)["'`]|fonts\.googleapis/g,
    );
    expect(remote).toBeNull();
  });

  it('needs no authentication for the document either', async () => {
    const res = await call('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });
});
