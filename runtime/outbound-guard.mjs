// The self-hosted runtime's outbound service (docs/contract.md, Webhooks): every fetch a worker makes
// to the outside goes through here. On Cloudflare the platform refuses connections to private
// addresses; workerd on its own does not, so this guard resolves the host first and refuses
// loopback, private, link-local, CGNAT, multicast, reserved and cloud-metadata addresses, then
// connects to the very address it checked (no second lookup a rebinding DNS could answer
// differently). In staging only a URL that literally names 127.0.0.1, localhost or [::1] may reach
// a local receiver; a *name* that resolves there (e.g. 169.254.169.254.nip.io) is still refused.
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { Response } from 'miniflare';
import { Agent, fetch } from 'undici';

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
])
  BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
])
  BLOCKED.addSubnet(net, bits, 'ipv6');

const LOOPBACK_LITERALS = new Set(['127.0.0.1', 'localhost', '::1']);

/** True for an address no client-supplied URL may reach. */
export function isBlockedAddress(address) {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  return BLOCKED.check(address, 'ipv6');
}

function refused(url, reason, log) {
  log(`outbound ${url.protocol}//${url.host} refused: ${reason}`);
  return new Response(`outbound connection refused: ${reason}`, {
    status: 502,
    headers: { 'x-connectpsp-outbound': 'refused' },
  });
}

/**
 * A miniflare outbound service. `allowLoopbackLiterals`: staging's local receivers; `lookup`
 * resolves a host name to `[{ address, family }]` (tests inject one).
 */
export function createOutboundGuard({ allowLoopbackLiterals = false, lookup, log = () => {} } = {}) {
  const resolve = lookup ?? ((host) => dnsLookup(host, { all: true, verbatim: true }));
  return async (request) => {
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return refused(url, 'scheme', log);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let targets;
    if (allowLoopbackLiterals && LOOPBACK_LITERALS.has(host)) {
      targets = [{ address: host === 'localhost' ? '127.0.0.1' : host, family: host === '::1' ? 6 : 4 }];
    } else {
      try {
        targets = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
      } catch (error) {
        return refused(url, `cannot resolve (${error?.code ?? error})`, log);
      }
      if (targets.length === 0) return refused(url, 'no address', log);
      const bad = targets.find((t) => isBlockedAddress(t.address));
      if (bad) return refused(url, `${host} resolves to a non-public address`, log);
    }
    const [target] = targets;
    // Connect to the checked address only; TLS still verifies the certificate for the host name.
    const dispatcher = new Agent({
      connect: {
        lookup: (_hostname, options, callback) =>
          options?.all ? callback(null, [target]) : callback(null, target.address, target.family),
      },
    });
    try {
      const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.arrayBuffer();
      const answer = await fetch(url, {
        method: request.method,
        headers: request.headers,
        body,
        redirect: 'manual',
        dispatcher,
      });
      // 204/205/304 (and any answer to HEAD) carry no body: a Response with one would throw.
      const empty = NULL_BODY_STATUSES.has(answer.status) || request.method === 'HEAD';
      return new Response(empty ? null : await answer.arrayBuffer(), {
        status: answer.status,
        headers: answer.headers,
      });
    } finally {
      dispatcher.close().catch(() => {});
    }
  };
}
