/**
 * MED disputes on a real partner (docs/contract.md, Disputes), against the fake PSP's Efí infraction
 * API (test/support/fake-efi-med.ts): infraction → hold → defense → outcome → MED return. The
 * infraction sweep (src/cron/partner-infractions.ts) reads them; the client acts through real
 * HTTP; the return arrives as the partner's callback. Each ends with our books equal to the PSP's,
 * centavo by centavo.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CashInBody } from '../../src/api/cash-in/shared';
import { getCashIn, problemCode } from '../support/cash-in';
import { assertBooks } from '../support/invariants';
import { callback, onboard, paidByCallback, psp, sweepInfractions } from '../support/partner-psp';
import { archiveNow, expectPspBooks, transactional } from '../support/psp-books';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

describe('MED disputes at a real partner', () => {
  it('infraction → hold → defense → ACCEPTED → MED return: the hold is consumed, money leaves once', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 100);
    const other = await paidByCallback(api, 30);
    const infraction = await psp('infraction', { endToEndId: e2e, valor: '100.00' });
    await sweepInfractions();
    const opened = await getCashIn(api, cashIn.internalCode);
    expect(opened.dispute).toMatchObject({ id: infraction.idInfracao, status: 'OPEN', blockedAmount: 100 });
    expect(Date.parse(opened.dispute!.respondBy)).toBe(Date.parse(infraction.dadosAnalise.prazoFinalizacao));
    expect(await transactional(api)).toMatchObject({ balance: 130, available: 30, blocked: 100 });
    // Read again by the next sweep: nothing moves twice.
    await sweepInfractions();
    expect(await transactional(api)).toMatchObject({ balance: 130, available: 30, blocked: 100 });

    const defense = await api.signedPost(`/cash-in/${cashIn.internalCode}/dispute/defense`, {
      text: 'The bettor paid from an account in their own name.',
    });
    expect(defense.status, await defense.clone().text()).toBe(202);
    expect(((await defense.json()) as CashInBody).dispute?.status).toBe('DEFENDED');
    expect(await psp(`infraction/${infraction.idInfracao}`)).toMatchObject({
      status: 'EM_DEFESA',
      defesa: 'The bettor paid from an account in their own name.',
    });

    await psp('infraction-decide', { idInfracao: infraction.idInfracao, status: 'ACEITA' });
    await sweepInfractions();
    const accepted = await getCashIn(api, cashIn.internalCode);
    expect(accepted).toMatchObject({ status: 'PAID', dispute: { status: 'ACCEPTED' } });
    // Still blocked until the money has left.
    expect(await transactional(api)).toMatchObject({ balance: 130, available: 30, blocked: 100 });

    await psp('return', {
      endToEndId: e2e,
      id: `MEDacc${Date.now() % 1e6}`,
      valor: '100.00',
      natureza: 'MED_FRAUDE',
    });
    expect((await callback(e2e))[0]?.outcomes).toContain('returned');
    expect(await getCashIn(api, cashIn.internalCode)).toMatchObject({ status: 'REFUNDED', reason: 'FRAUD' });
    expect(await transactional(api)).toMatchObject({ balance: 30, available: 30, blocked: 0 });
    await assertBooks(api);
    await expectPspBooks(api, [e2e, other.e2e]);
  });

  it('REJECTED releases the hold; a defense after the deadline is refused and nothing is sent', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 40);
    // The sandbox never acts on a real partner's Cash-In: it answers like a nonexistent one.
    for (const path of ['dispute', 'dispute/close']) {
      const res = await api.post(`/sandbox/cash-in/${cashIn.internalCode}/${path}`, { outcome: 'ACCEPTED' });
      expect(await problemCode(res)).toBe(path === 'dispute' ? 'VALIDATION_ERROR' : 'CASHIN_NOT_FOUND');
    }
    expect(await problemCode(await api.post(`/sandbox/cash-in/${cashIn.internalCode}/dispute`, {}))).toBe(
      'CASHIN_NOT_FOUND',
    );
    const infraction = await psp('infraction', { endToEndId: e2e, valor: '25.00', respondMs: 1 });
    await sweepInfractions();
    expect(await transactional(api)).toMatchObject({ balance: 40, available: 15, blocked: 25 });
    const late = await api.signedPost(`/cash-in/${cashIn.internalCode}/dispute/defense`, {
      text: 'Too late',
    });
    expect(await problemCode(late)).toBe('RULE_VIOLATION');
    expect((await psp(`infraction/${infraction.idInfracao}`)).status).toBe('ABERTA');

    await psp('infraction-decide', { idInfracao: infraction.idInfracao, status: 'REJEITADA' });
    await sweepInfractions();
    expect((await getCashIn(api, cashIn.internalCode)).dispute).toMatchObject({
      status: 'REJECTED',
      blockedAmount: 25,
    });
    expect(await transactional(api)).toMatchObject({ balance: 40, available: 40, blocked: 0 });
    await assertBooks(api);
    await expectPspBooks(api, [e2e]);
  });

  it('two defenses at once: one reaches the partner, the other is refused before anything is sent', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 20);
    const infraction = await psp('infraction', { endToEndId: e2e, valor: '20.00' });
    await sweepInfractions();
    const answers = await Promise.all(
      ['first', 'second'].map((text) =>
        api.signedPost(`/cash-in/${cashIn.internalCode}/dispute/defense`, { text }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([202, 422]);
    const atPsp = await psp(`infraction/${infraction.idInfracao}`);
    expect(atPsp).toMatchObject({ status: 'EM_DEFESA', defenseRequests: 1 });
    expect((await getCashIn(api, cashIn.internalCode)).dispute?.status).toBe('DEFENDED');
    await psp('infraction-decide', { idInfracao: infraction.idInfracao, status: 'CANCELADA_EFI' });
    await sweepInfractions();
    expect(await transactional(api)).toMatchObject({ balance: 20, available: 20, blocked: 0 });
    await assertBooks(api);
    await expectPspBooks(api, [e2e]);
  });

  it('an infraction on an archived Cash-In brings it back; ACCEPTED and returned, books equal', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 55);
    expect(await archiveNow(api)).toBe(1);
    const infraction = await psp('infraction', { endToEndId: e2e, valor: '55.00' });
    await sweepInfractions();
    expect((await getCashIn(api, cashIn.internalCode)).dispute?.status).toBe('OPEN');
    expect(await transactional(api)).toMatchObject({ balance: 55, available: 0, blocked: 55 });
    await psp('infraction-decide', { idInfracao: infraction.idInfracao, status: 'ACEITA' });
    await psp('return', {
      endToEndId: e2e,
      id: `MEDarc${Date.now() % 1e6}`,
      valor: '55.00',
      natureza: 'MED_FRAUDE',
    });
    expect((await callback(e2e))[0]?.outcomes).toContain('returned');
    await sweepInfractions();
    expect(await getCashIn(api, cashIn.internalCode)).toMatchObject({
      status: 'REFUNDED',
      dispute: { status: 'ACCEPTED' },
    });
    await expectPspBooks(api, [e2e]);
  });
});
