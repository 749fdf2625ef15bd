/**
 * Who may post a partner's Pix callbacks. The API Pix security manual protects the callback with
 * mTLS: Cloudflare verifies the client certificate at the edge and reports it in
 * `request.cf.tlsClientAuth`; since any certificate from a trusted CA verifies, the partner's own
 * certificate is told apart by its subject DN (and issuer DN when configured). Partners that cannot
 * present one post to a secret path segment instead (`PARTNER_<ISPB>_WEBHOOK_SECRET`, compared in
 * constant time). With neither configured nothing is accepted. Either way a callback is only a
 * hint: money moves only on what the partner answers when asked again.
 */
import { constantTimeEqual } from '../security/secrets';
import type { WebhookAuth } from './config';

/** The fields of Cloudflare's `request.cf.tlsClientAuth` this check reads. */
export interface TlsClientAuth {
  certPresented?: string;
  certVerified?: string;
  certRevoked?: string;
  certSubjectDN?: string;
  certSubjectDNRFC2253?: string;
  certIssuerDN?: string;
  certIssuerDNRFC2253?: string;
}

const sameDn = (expected: string, ...seen: (string | undefined)[]) =>
  seen.some((dn) => dn !== undefined && dn !== '' && dn === expected);

function certificateAccepted(tls: TlsClientAuth | undefined, auth: WebhookAuth): boolean {
  if (!auth.certSubject || !tls) return false;
  return (
    tls.certPresented === '1' &&
    tls.certVerified === 'SUCCESS' &&
    tls.certRevoked !== '1' &&
    sameDn(auth.certSubject, tls.certSubjectDN, tls.certSubjectDNRFC2253) &&
    (!auth.certIssuer || sameDn(auth.certIssuer, tls.certIssuerDN, tls.certIssuerDNRFC2253))
  );
}

/**
 * Whether this callback comes from the partner: through the secret path when the request used one
 * (`pathSecret`), else through its client certificate.
 */
export function callbackAuthentic(
  request: Request,
  auth: WebhookAuth,
  pathSecret?: string,
  env?: unknown,
): boolean {
  if (pathSecret !== undefined)
    return auth.secret !== undefined && constantTimeEqual(pathSecret, auth.secret);
  if (!requestCfFromEdge(env)) return false;
  const cf = (request as { cf?: { tlsClientAuth?: TlsClientAuth } }).cf;
  return certificateAccepted(cf?.tlsClientAuth, auth);
}

/**
 * Whether `request.cf` comes from Cloudflare's edge. `npm start` (wrangler dev) sets
 * `REQUEST_CF=untrusted`: there miniflare builds `request.cf` from a client's `MF-CF-Blob` header,
 * so a client could present any certificate. (`npm run serve` drops such a `request.cf` at its
 * socket: runtime/local-runtime.mjs.)
 */
function requestCfFromEdge(env: unknown): boolean {
  return (env as { REQUEST_CF?: unknown } | undefined)?.REQUEST_CF !== 'untrusted';
}
