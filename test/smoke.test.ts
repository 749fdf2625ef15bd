import { exports } from 'cloudflare:workers';
import { expect, it } from 'vitest';

it('serves', async () => {
  const res = await exports.default.fetch('http://gw.test/');
  expect(res.status).toBe(200);
});
