/**
 * The self-hosted runtime's outbound service refuses client-supplied targets that resolve to
 * loopback, private, link-local or metadata addresses (issue 19.7), after resolution, while
 * staging's literal local receivers (http://127.0.0.1, localhost) still work.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Request } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundGuard, isBlockedAddress } from '../../runtime/outbound-guard.mjs';

let server: Server;
let port = 0;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.headers.host} ${req.url}`);
    if (req.url === '/no-content') res.writeHead(204).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A DNS of our own: names that resolve to what an attacker would pick. */
const ZONE: Record<string, { address: string; family: number }[]> = {
  'rebind.test': [{ address: '127.0.0.1', family: 4 }],
  '169.254.169.254.nip.io': [{ address: '169.254.169.254', family: 4 }],
  'intranet.test': [{ address: '10.1.2.3', family: 4 }],
  'mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '192.168.0.10', family: 4 },
  ],
  'v6local.test': [{ address: 'fe80::1', family: 6 }],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
};
const lookup = async (host: string) => {
  const answer = ZONE[host];
  if (!answer) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return answer;
};

const post = (url: string) => new Request(url, { method: 'POST', body: '{"eventType":"X"}' });

describe('outbound guard (runtime/outbound-guard.mjs)', () => {
  it('refuses names that resolve to non-public addresses, in staging and production', async () => {
    for (const allowLoopbackLiterals of [true, false]) {
      const guard = createOutboundGuard({ allowLoopbackLiterals, lookup });
      for (const host of Object.keys(ZONE)) {
        const res = await guard(post(`http://${host}:${port}/hook`));
        expect(res.status, host).toBe(502);
        expect(res.headers.get('x-connectpsp-outbound')).toBe('refused');
      }
      for (const url of [
        'http://169.254.169.254/latest/meta-data',
        'http://10.0.0.1/',
        'http://[fd00:ec2::254]/',
      ])
        expect((await guard(post(url))).status, url).toBe(502);
      expect((await guard(post('http://unknown.test/'))).status).toBe(502);
    }
    expect(received).toEqual([]);
  });

  it('lets staging reach a local receiver named literally, and refuses it in production', async () => {
    const staging = createOutboundGuard({ allowLoopbackLiterals: true, lookup });
    const res = await staging(post(`http://127.0.0.1:${port}/hook?a=1`));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect((await staging(post(`http://localhost:${port}/x`))).status).toBe(200);
    expect(received).toEqual([`POST 127.0.0.1:${port} /hook?a=1`, `POST localhost:${port} /x`]);
    const production = createOutboundGuard({ allowLoopbackLiterals: false, lookup });
    expect((await production(post(`http://127.0.0.1:${port}/hook`))).status).toBe(502);
    expect((await production(post(`http://localhost:${port}/hook`))).status).toBe(502);
    expect(received).toHaveLength(2);
  });

  it("passes on a receiver's 204 No Content (a body-less status) instead of failing it", async () => {
    const staging = createOutboundGuard({ allowLoopbackLiterals: true, lookup });
    const res = await staging(post(`http://127.0.0.1:${port}/no-content`));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    received.length = 0;
  });

  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      'not-an-ip',
    ])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isBlockedAddress(a), a).toBe(false);
  });
});
