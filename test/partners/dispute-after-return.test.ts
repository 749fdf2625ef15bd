/**
 * A MED infraction the gateway sees only after the bank's return of it was booked (docs/contract.md,
 * Disputes): the partner was down while the infraction was open, the bank decided, and the return
 * reached the books (the partner's callback, re-read from the partner) before the infraction sweep
 * (src/cron/partner-infractions.ts) first listed the infraction. The block the partner placed has
 * already left with that return, so nothing may stay held: each ends with our books equal to the
 * fake PSP's, centavo by centavo, and nothing blocked.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { getCashIn } from '../support/cash-in';
import { assertBooks } from '../support/invariants';
import { callback, onboard, paidByCallback, psp, sweepInfractions } from '../support/partner-psp';
import { archiveNow, expectPspBooks, transactional } from '../support/psp-books';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

let returns = 0;
/** The MED return of `valor` at the PSP, booked at once through the partner's callback. */
async function medReturned(e2e: string, valor: string) {
  const id = `MEDlate${Date.now() % 1e6}${++returns}`;
  await psp('return', { endToEndId: e2e, id, valor, natureza: 'MED_FRAUDE' });
  expect((await callback(e2e))[0]?.outcomes).toContain('returned');
}

describe('an infraction first seen after its return was booked', () => {
  it('partial, already ACCEPTED: recorded and closed, nothing held, books equal', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 100);
    const other = await paidByCallback(api, 30);
    const infraction = await psp('infraction', { endToEndId: e2e, valor: '50.00' });
    await psp('infraction-decide', { idInfracao: infraction.idInfracao, status: 'ACEITA' });
    await medReturned(e2e, '50.00');
    expect(await getCashIn(api, cashIn.internalCode)).toMatchObject({ status: 'PAID' });
    expect(await transactional(api)).toMatchObject({ balance: 80, available: 80, blocked: 0 });

    await sweepInfractions();
    const seen = await getCashIn(api, cashIn.internalCode);
    expect(seen).toMatchObject({
      status: 'PAID',
      dispute: { id: infraction.idInfracao, status: 'ACCEPTED' },
    });
    expect(await transactional(api)).toMatchObject({ balance: 80, available: 80, blocked: 0 });
    // Read again by the next sweep: nothing moves.
    await sweepInfractions();
    expect(await transactional(api)).toMatchObject({ balance: 80, available: 80, blocked: 0 });
    await assertBooks(api);
    await expectPspBooks(api, [e2e, other.e2e]);
  });

  it('partial, still OPEN at the partner: the returned block is not held again; ACCEPTED later leaves nothing', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 90);
    const infraction = await psp('infraction', { endToEndId: e2e, valor: '30.00' });
    await medReturned(e2e, '30.00');
    await sweepInfractions();
    expect((await getCashIn(api, cashIn.internalCode)).dispute).toMatchObject({
      status: 'OPEN',
      blockedAmount: 0,
    });
    expect(await transactional(api)).toMatchObject({ balance: 60, available: 60, blocked: 0 });

    await psp('infraction-decide', { idInfracao: infraction.idInfracao, status: 'ACEITA' });
    await sweepInfractions();
    expect((await getCashIn(api, cashIn.internalCode)).dispute?.status).toBe('ACCEPTED');
    expect(await transactional(api)).toMatchObject({ balance: 60, available: 60, blocked: 0 });
    await assertBooks(api);
    await expectPspBooks(api, [e2e]);
  });

  it('a return of less than the block leaves the rest held until the rest is returned', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 100);
    const infraction = await psp('infraction', { endToEndId: e2e, valor: '50.00' });
    await medReturned(e2e, '20.00');
    await sweepInfractions();
    expect((await getCashIn(api, cashIn.internalCode)).dispute).toMatchObject({
      status: 'OPEN',
      blockedAmount: 30,
    });
    expect(await transactional(api)).toMatchObject({ balance: 80, available: 50, blocked: 30 });

    await psp('infraction-decide', { idInfracao: infraction.idInfracao, status: 'ACEITA' });
    await sweepInfractions();
    expect(await transactional(api)).toMatchObject({ balance: 80, available: 50, blocked: 30 });
    await medReturned(e2e, '30.00');
    expect(await transactional(api)).toMatchObject({ balance: 50, available: 50, blocked: 0 });
    await assertBooks(api);
    await expectPspBooks(api, [e2e]);
  });

  it('a return booked before the infraction opened is not the block: the whole infraction is held', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 100);
    await medReturned(e2e, '20.00');
    // A later instant than the return's booking (the clock moves on with the timer).
    await new Promise((resolve) => setTimeout(resolve, 5));
    const infraction = await psp('infraction', { endToEndId: e2e, valor: '50.00' });
    await sweepInfractions();
    expect((await getCashIn(api, cashIn.internalCode)).dispute).toMatchObject({
      status: 'OPEN',
      blockedAmount: 50,
    });
    expect(await transactional(api)).toMatchObject({ balance: 80, available: 30, blocked: 50 });
    await psp('infraction-decide', { idInfracao: infraction.idInfracao, status: 'REJEITADA' });
    await sweepInfractions();
    expect(await transactional(api)).toMatchObject({ balance: 80, available: 80, blocked: 0 });
    await assertBooks(api);
    await expectPspBooks(api, [e2e]);
  });

  it('its return archived before the infraction is seen (an early archive run): nothing held, books equal', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 100);
    const infraction = await psp('infraction', { endToEndId: e2e, valor: '50.00' });
    await psp('infraction-decide', { idInfracao: infraction.idInfracao, status: 'ACEITA' });
    await medReturned(e2e, '50.00');
    // Archived with its entries: the infraction brings the Cash-In back hot, its return stays archived.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await archiveNow(api)).toBe(1);
    await sweepInfractions();
    expect(await getCashIn(api, cashIn.internalCode)).toMatchObject({
      status: 'PAID',
      dispute: { status: 'ACCEPTED', blockedAmount: 0 },
    });
    expect(await transactional(api)).toMatchObject({ balance: 50, available: 50, blocked: 0 });
    await expectPspBooks(api, [e2e]);
  });
});
