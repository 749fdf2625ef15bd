/**
 * Gateway-hosted charge locations (the sandbox partner's BR Code location, the open-finance payment
 * URL) name the client by a random location key, never by its id: anyone who sees a merchant's QR
 * code must not learn the id POST /auth/token takes, nor read it from the charge's txid (which begins
 * with the same key). The location still resolves to its charge; a
 * locator issued in the old format (the client UUID's bytes) keeps resolving; another client's key
 * with this client's code is no charge.
 */
import { describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/domain/brcode';
import { legacyCashInTxId } from '../../src/domain/ids';
import { clientKey, parseLocator } from '../../src/domain/location';
import { createCashIn } from '../support/cash-in';
import { call, Integrator } from '../support/harness';

function locationOf(copyAndPaste: string): URL {
  const parsed = parseBrCode(copyAndPaste);
  if (!parsed.ok || !parsed.fields.merchantAccount.url) throw new Error('no location in the BR Code');
  return new URL(`http://${parsed.fields.merchantAccount.url}`);
}

/** Every way the client id could be written into a URL. */
function idForms(clientId: string): string[] {
  const hex = clientId.replace(/-/g, '');
  return [clientId, hex, hex.toUpperCase(), clientKey(clientId)];
}

describe('gateway-hosted locations', () => {
  it('carry no form of the client id, and resolve to their charge', async () => {
    const api = await Integrator.create();
    const other = await Integrator.create();
    const cashIn = await createCashIn(api, { amount: 12.34 });
    const location = locationOf(cashIn.pixData!.copyAndPaste);
    for (const form of idForms(api.client.clientId)) expect(location.href).not.toContain(form);
    const locator = parseLocator(location.pathname.replace('/pix/qr/', ''));
    expect(locator?.internalCode).toBe(cashIn.internalCode);
    // The key is the client's, the same on every charge of it, and another client's differs.
    const second = locationOf((await createCashIn(api, { amount: 1 })).pixData!.copyAndPaste);
    expect(parseLocator(second.pathname.replace('/pix/qr/', ''))?.key).toBe(locator?.key);
    const foreign = locationOf((await createCashIn(other, { amount: 1 })).pixData!.copyAndPaste);
    const foreignKey = parseLocator(foreign.pathname.replace('/pix/qr/', ''))?.key;
    expect(foreignKey).not.toBe(locator?.key);

    const served = await call(location.pathname);
    expect(served.status).toBe(200);
    const payload = JSON.parse(
      atob((await served.text()).split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')),
    );
    expect(payload.valor.original).toBe('12.34');
    // The charge's txid, which whoever pays sees, begins with the same key and carries no id either.
    expect(payload.txid).toBe(cashIn.transactionId);
    expect(payload.txid.startsWith(locator!.key)).toBe(true);
    const legacyPart = legacyCashInTxId(api.client.clientId, cashIn.internalCode).slice(0, 22);
    for (const form of [...idForms(api.client.clientId), legacyPart])
      expect(payload.txid).not.toContain(form);
    // Another client's key with this client's code is no charge, exactly like an unknown one.
    const crossed = await call(`/pix/qr/${foreignKey}${cashIn.internalCode}`);
    const unknown = await call(`/pix/qr/${'A'.repeat(22)}${cashIn.internalCode}`);
    expect([crossed.status, unknown.status]).toEqual([404, 404]);
    expect(await crossed.json()).toEqual(await unknown.json());
  });

  it('an open-finance payment URL carries the location key too, not the client id', async () => {
    const api = await Integrator.create();
    const cashIn = await createCashIn(api, {
      amount: 5,
      openFinance: { redirectUrl: 'https://shop.example/back' },
    });
    const url = new URL(cashIn.openFinanceData!.paymentUrl);
    for (const form of idForms(api.client.clientId)) expect(url.href).not.toContain(form);
    expect((await call(url.pathname)).status).toBe(200);
  });

  it('a location issued in the old format (the client id in it) still resolves', async () => {
    const api = await Integrator.create();
    const cashIn = await createCashIn(api, { amount: 7 });
    const legacy = await call(`/pix/qr/${clientKey(api.client.clientId)}${cashIn.internalCode}`);
    expect(legacy.status).toBe(200);
  });
});
