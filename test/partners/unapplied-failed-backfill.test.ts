/**
 * FAILED unapplied returns recorded before a FAILED return was read again have no read scheduled:
 * a client's return task ended on FAILED, a partner-held row kept no `next_at`. Each one inside the
 * MED window gets its read (the client's from its ledger's first sweep, the partner's from the cron),
 * so a devolution the network settled later is booked RETURNED once; one past the window is left alone.
 */
import { env } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { returnPartnerHeld } from '../../src/cron/partner-unapplied';
import { sweepAllClients } from '../../src/cron/sweep';
import { MED_WINDOW_MS } from '../../src/domain/med-recheck';
import { setReceipts } from '../support/d1-writes';
import { assertBooks } from '../support/invariants';
import { suspenseEntries } from '../support/ledger-reads';
import { dropTasks } from '../support/ledger-writes';
import { psp, statementOf } from '../support/partner-psp';
import { tasksOf } from '../support/psp-books';
import {
  failedDuplicateReturn,
  failedStrayReturns,
  nextReadAt,
  unappliedOf,
  waitForReturn,
} from '../support/unapplied';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

const nextAt = nextReadAt;

describe('FAILED unapplied returns kept from before they were read again', () => {
  it("a client's, with no task left, is read at its ledger's next sweep and turns RETURNED once", async () => {
    const { api, second, devolution } = await failedDuplicateReturn(23.45);
    // As the code before kept it: the return task ended with the FAILED step.
    await dropTasks(api.client.clientId, { kind: 'return-unapplied' });
    expect(await tasksOf(api, 'return-unapplied')).toEqual([]);
    // The network settles it after all; no callback comes.
    await psp('devolution', { endToEndId: second, id: devolution?.id, ok: true });
    await sweepAllClients(env);
    const returned = await waitForReturn(second, 'RETURNED');
    expect(returned?.return).toMatchObject({ id: devolution?.id, status: 'RETURNED' });
    expect((await psp(`pix/${second}`)).devolucoes).toHaveLength(1);
    expect(
      (await suspenseEntries(api.client.clientId))
        .filter((e) => e.direction === 'DEBIT')
        .map(({ amount }) => ({ amount })),
    ).toEqual([{ amount: 2345 }]);
    expect((await statementOf(api)).map((x) => [x.type, x.amount])).toEqual([['PIX_IN', 23.45]]);
    await assertBooks(api);
  });

  it("a partner-held one with no next read is read by the cron's next run; one past the MED window is not", async () => {
    const { strays, devolutions } = await failedStrayReturns(
      '7.77',
      'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ',
      2,
    );
    for (const stray of strays) expect((await unappliedOf(stray))?.return.status).toBe('FAILED');
    const [inWindow, old] = strays as [string, string];
    // As the code before kept them: no next read. The second was paid before the MED window.
    await setReceipts([inWindow, old], { nextAt: null });
    await setReceipts([old], { receivedAt: Date.now() - MED_WINDOW_MS - 60_000 });
    for (const [i, stray] of strays.entries())
      await psp('devolution', { endToEndId: stray, id: devolutions[i]?.id, ok: true });
    await returnPartnerHeld(env, Date.now() + 10_000);
    expect((await unappliedOf(inWindow))?.return).toMatchObject({
      status: 'RETURNED',
      id: devolutions[0]?.id,
    });
    expect(await nextAt(inWindow)).toBeNull();
    expect((await psp(`pix/${inWindow}`)).devolucoes).toHaveLength(1);
    // Past the window: the operator's, as before.
    expect((await unappliedOf(old))?.return.status).toBe('FAILED');
    expect(await nextAt(old)).toBeNull();
  });
});
