/**
 * A client refund's status poll that the partner does not answer in time (src/partners/timeout.ts):
 * a transient, not an error. The read wrote nothing, the poll runs again, and once the partner
 * answers the refund is booked once; the worker logs a warning for it, never an error line (the
 * soak fails a run on any error line: it must mean a failure nobody answered).
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { PARTNER_TIMEOUT_MS } from '../../src/partners/timeout';
import { getCashIn, waitFor } from '../support/cash-in';
import { assertBooks } from '../support/invariants';
import { callback, onboard, paidAtPsp, psp } from '../support/partner-psp';
import { expectPspBooks } from '../support/psp-books';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a refund poll the partner does not answer in time', () => {
  it('is read again (a warning, no error line) and the refund is booked once', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 12.34);
    await callback(e2e);
    await waitFor(
      () => getCashIn(api, cashIn.internalCode),
      (c) => c.status === 'PAID',
    );
    const lines = { warn: [] as string[], error: [] as string[] };
    for (const level of ['warn', 'error'] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines[level].push(args.map(String).join(' '));
      });
    const slow = `/pix/${e2e}/devolucao/`;
    await psp('slow', { match: slow, ms: PARTNER_TIMEOUT_MS + 3_000 });
    const refund = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    expect(refund.status).toBe(202);
    const { endToEndId: devolutionId } = (await refund.json()) as { endToEndId: string };
    const timedOut = (line: string) =>
      line.includes('poll-refund') && line.includes('did not answer devolutionStatus');
    await waitFor(
      async () => lines.warn.filter(timedOut).length,
      (n) => n >= 1,
      60_000,
    );
    await psp('slow', { match: slow, ms: 0 });
    await psp('devolution', { endToEndId: e2e, id: devolutionId, ok: true });
    await waitFor(
      () => getCashIn(api, cashIn.internalCode),
      (c) => c.status === 'REFUNDED',
      60_000,
    );
    expect(lines.error.filter((l) => l.includes('poll-refund'))).toEqual([]);
    await assertBooks(api);
    await expectPspBooks(api, [e2e]);
  });
});
