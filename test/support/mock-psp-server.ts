/**
 * The fake PSP of the Workers tests (test/setup/fake-psp.ts: API Pix validated against the vendored
 * bacen/pix-api document, Efí Pix Send against Efí's SDK schemas) served over plain HTTP on this
 * machine, so `npm start` can be pointed at it as a `bcb-api-pix` partner. Node only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fakePspFetcher } from '../setup/fake-psp';
import { FAKE_PSP_ISPB } from './fake-psp-env';

const OPENAPI = path.join(import.meta.dirname, '..', 'fixtures', 'bcb-pix-api', 'openapi.yaml');

export interface MockPsp {
  url: string;
  server: Server;
  /** The partner declaration and secrets that point a gateway at this mock. */
  partnerVars: Record<string, string>;
  close(): Promise<void>;
}

export async function startMockPsp(port = 0): Promise<MockPsp> {
  const fetcher = fakePspFetcher(OPENAPI);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    // The fake knows itself as https://psp.test; only the transport differs here.
    const request = new Request(`https://psp.test${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) =>
        v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v] as [string, string]],
      ),
      ...(body && req.method !== 'GET' && req.method !== 'HEAD' && { body }),
    });
    try {
      const response = await fetcher(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const partnerVars = {
    PARTNERS: JSON.stringify([
      {
        ispb: FAKE_PSP_ISPB,
        name: 'PSP de Testes S.A.',
        branch: '0001',
        kind: 'bcb-api-pix',
        baseUrl: `${url}/api/v2`,
        tokenUrl: `${url}/oauth/token`,
        pixKey: 'cobranca@connectpsp.example',
        payout: { kind: 'efi-pix-send', baseUrl: url, payerKey: 'pagamentos@connectpsp.example' },
      },
    ]),
    [`PARTNER_${FAKE_PSP_ISPB}_CLIENT_ID`]: 'connectpsp-local',
    [`PARTNER_${FAKE_PSP_ISPB}_CLIENT_SECRET`]: 'mock-psp-secret',
    [`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`]: 'wh-local-mock-psp-0123456789abcdef',
  };
  return {
    url,
    server,
    partnerVars,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
