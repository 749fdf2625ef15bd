/**
 * The operator console over real HTTP in the Workers runtime: sign-in by the operator token into an
 * HttpOnly, SameSite=Strict cookie session; every POST refused without the same origin and the
 * session's CSRF token; data from clients is escaped; the redeliver button makes a FAILED delivery
 * PENDING again. The browser-level test (plots, screenshots) is test/node/console-browser.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, admin, BASE, call, Integrator } from '../support/harness';
import { failedFirstEvent, waitForDelivery } from '../support/webhooks';

const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: BASE };

async function signIn(token = ADMIN_TOKEN): Promise<Response> {
  return call('/admin/console/login', {
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams({ token }).toString(),
    redirect: 'manual',
  });
}

async function session(): Promise<{ cookie: string; page: string; csrf: string }> {
  const res = await signIn();
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const page = await (await call('/admin/console', { headers: { cookie } })).text();
  const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(page)?.[1] as string;
  return { cookie, page, csrf };
}

describe('operator console: sign-in and session', () => {
  it('shows the sign-in form without a session, and refuses a wrong token', async () => {
    const res = await call('/admin/console');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('name="token"');
    expect(html).not.toContain('chart-data');

    const wrong = await signIn('not-the-token');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('opens an HttpOnly, SameSite=Strict session scoped to the console with the right token', async () => {
    const res = await signIn();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/console');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^connectpsp_console=\d{13}\.[0-9a-f]{32}\.[0-9a-f]{64}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/admin/console');
    expect(cookie).not.toContain(ADMIN_TOKEN);
  });

  it('treats a forged or altered cookie as no session', async () => {
    const { cookie } = await session();
    const altered = cookie.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    const later = cookie.replace(/=(\d{13})/, (_m, exp) => `=${Number(exp) + 1}`);
    for (const bad of [altered, later, 'connectpsp_console=1.2.3']) {
      const html = await (await call('/admin/console', { headers: { cookie: bad } })).text();
      expect(html, bad).toContain('name="token"');
    }
  });

  it('refuses a sign-in from another origin', async () => {
    const res = await call('/admin/console/login', {
      method: 'POST',
      headers: { ...FORM, origin: 'https://evil.example' },
      body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('signs out: the cookie is cleared', async () => {
    const { cookie, csrf } = await session();
    const res = await call('/admin/console/logout', {
      method: 'POST',
      headers: { ...FORM, cookie },
      body: new URLSearchParams({ csrf }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/^connectpsp_console=; .*Max-Age=0/);
  });
});

describe('operator console: clients and deliveries', () => {
  it('lists a new client with its limits, escaping what the client sent', async () => {
    const api = await Integrator.create({ name: 'Loja <script>alert(1)</script> Ltda' });
    const patch = await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { limits: { daily: 5000 } });
    expect(patch.status).toBe(200);
    const { cookie } = await session();
    const html = await (
      await call(`/admin/console?client=${api.client.clientId}`, { headers: { cookie } })
    ).text();
    expect(html).toContain(api.client.clientId);
    expect(html).toContain('Loja &lt;script&gt;alert(1)&lt;/script&gt; Ltda');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('daily R$ 5.000,00');
    expect(html).toContain('deposits from any payer');
  });

  it("shows a client's payerPolicy: deposits from the declared payer only", async () => {
    const api = await Integrator.create({ payerPolicy: 'DECLARED_PAYER' });
    const { cookie } = await session();
    const html = await (
      await call(`/admin/console?client=${api.client.clientId}`, { headers: { cookie } })
    ).text();
    expect(html).toContain('deposits from the declared payer only');
  });

  it('redelivers a FAILED delivery only with the session, the same origin and its CSRF token', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const { eventId } = await failedFirstEvent(api);

    const { cookie, csrf } = await session();
    const page = await (await call(`/admin/console?client=${clientId}`, { headers: { cookie } })).text();
    expect(page).toContain(`data-event-id="${eventId}" data-status="FAILED"`);
    const body = new URLSearchParams({ csrf, clientId, eventId }).toString();
    const post = (headers: Record<string, string>, form = body) =>
      call('/admin/console/redeliver', { method: 'POST', headers, body: form, redirect: 'manual' });

    expect((await post({ ...FORM, cookie, origin: 'https://evil.example' })).status).toBe(403);
    const { origin: _o, ...noOrigin } = FORM;
    expect((await post({ ...noOrigin, cookie })).status).toBe(403);
    const wrongCsrf = new URLSearchParams({ csrf: 'f'.repeat(64), clientId, eventId }).toString();
    expect((await post({ ...FORM, cookie }, wrongCsrf)).status).toBe(403);
    const noSession = await post({ ...FORM });
    expect(noSession.status).toBe(303);
    expect(noSession.headers.get('location')).toBe('/admin/console');
    expect((await waitForDelivery(clientId, eventId, () => true)).status).toBe('FAILED');

    const ok = await post({ ...FORM, cookie });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(
      `/admin/console?client=${clientId}&notice=redelivered#deliveries`,
    );
    const after = await waitForDelivery(clientId, eventId, (r) => r.status !== 'FAILED' || r.attempts === 0);
    expect(['PENDING', 'DELIVERING', 'FAILED']).toContain(after.status);
    expect(after.attempts).toBeLessThanOrEqual(1);

    // An unknown client's delivery is "not found", and no ClientLedger is created for it.
    const foreign = new URLSearchParams({ csrf, clientId: crypto.randomUUID(), eventId }).toString();
    const res = await post({ ...FORM, cookie }, foreign);
    expect(res.headers.get('location')).toContain('notice=not-found');
  });
});

describe('operator console: assets', () => {
  it('serves uPlot and its own files from the Worker, with no CDN', async () => {
    for (const [name, type] of [
      ['uplot.js', 'text/javascript'],
      ['uplot.css', 'text/css'],
      ['console.js', 'text/javascript'],
      ['console.css', 'text/css'],
    ] as const) {
      const res = await call(`/admin/console/assets/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect((await res.text()).length).toBeGreaterThan(500);
    }
    expect((await call('/admin/console/assets/nope.js')).status).toBe(404);
    const { page } = await session();
    expect(page).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"']*\.(js|css)/);
  });
});
