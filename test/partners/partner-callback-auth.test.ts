/**
 * Who may post a real partner's Pix callbacks (issue 17 §4): the partner's client certificate as
 * Cloudflare reports it in `request.cf.tlsClientAuth`, matched by subject and issuer DN, or its
 * secret path segment (never logged); anything else is 401, an ISPB that is no declared real
 * partner 404 like an unknown route, a body that is no list of Pix 400.
 */
import { describe, expect, it, vi } from 'vitest';
import { call } from '../support/harness';
import { CERT, postCallback, SECRET } from '../support/partner-psp';

describe('callback authentication', () => {
  const body = { pix: [] };
  it('accepts the partner certificate by subject and issuer', async () => {
    expect((await postCallback(body, { cert: CERT })).status).toBe(200);
  });

  it.each([
    ['no certificate', undefined],
    ['a certificate the edge did not verify', { ...CERT, certVerified: 'FAILED:self signed certificate' }],
    ['a revoked certificate', { ...CERT, certRevoked: '1' }],
    ['another subject', { ...CERT, certSubjectDN: 'CN=someone.else,O=Other,C=BR' }],
    ['another issuer', { ...CERT, certIssuerDN: 'CN=Other CA,O=Other,C=BR' }],
  ])('refuses %s with 401 UNAUTHORIZED', async (_, cert) => {
    const res = await postCallback(body, cert ? { cert } : {});
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('accepts the secret path and refuses a wrong one, logging neither', async () => {
    const lines: string[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((line: unknown) => void lines.push(String(line))),
    );
    const wrongSecret = `${SECRET.slice(0, -1)}x`;
    try {
      expect((await postCallback(body, { secret: SECRET })).status).toBe(200);
      expect((await postCallback(body, { secret: wrongSecret })).status).toBe(401);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(lines.some((l) => l.includes('/webhook/***/pix'))).toBe(true);
    expect(lines.filter((l) => l.includes(SECRET.slice(3, -3)) || l.includes(wrongSecret))).toEqual([]);
  });

  it('answers an undeclared or sandbox partner like an unknown route', async () => {
    for (const ispb of ['12345678', '31880826']) {
      const res = await call(`/partners/${ispb}/webhook/pix`, { method: 'POST', body: '{"pix":[]}' });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('refuses a body that is not a list of Pix', async () => {
    const res = await postCallback({ pix: [{ endToEndId: 'short' }] }, { secret: SECRET });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
