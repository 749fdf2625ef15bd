/**
 * One partner callback causes a bounded number of partner calls: each hinted Pix is read again
 * from the PSP, at most MAX_READS_PER_CALLBACK per callback; the rest answer `deferred` (the sweep
 * of received Pix reads them by time window). A forged or oversized callback can no longer make
 * hundreds of calls against our quota at the PSP.
 */
import { describe, expect, it } from 'vitest';
import { MAX_READS_PER_CALLBACK } from '../../src/api/partners/pix-callback';
import { newE2e, postCallback, psp, SECRET } from '../support/partner-psp';

describe('partner reads per callback', () => {
  it(`a callback naming 500 Pix reads at most ${MAX_READS_PER_CALLBACK} of them`, async () => {
    expect(MAX_READS_PER_CALLBACK).toBeLessThanOrEqual(50);
    const before = (await psp('invalid')).requests as number;
    const ids = Array.from({ length: 500 }, () => newE2e());
    const res = await postCallback({ pix: ids.map((endToEndId) => ({ endToEndId })) }, { secret: SECRET });
    expect(res.status).toBe(200);
    const { pix } = (await res.json()) as { pix: { endToEndId: string; outcomes: string[] }[] };
    expect(pix.map((p) => p.endToEndId).sort()).toEqual([...ids].sort());
    const read = pix.filter((p) => !p.outcomes.includes('deferred'));
    // Unknown to the PSP: each one read answered not-confirmed; nothing moved.
    expect(read).toHaveLength(MAX_READS_PER_CALLBACK);
    expect(read.every((p) => p.outcomes.join() === 'not-confirmed')).toBe(true);
    expect(pix.filter((p) => p.outcomes.join() === 'deferred')).toHaveLength(500 - MAX_READS_PER_CALLBACK);
    // The PSP saw the reads (other test files may add their own requests meanwhile).
    const after = (await psp('invalid')).requests as number;
    expect(after - before).toBeGreaterThanOrEqual(MAX_READS_PER_CALLBACK);
  });

  it('repeated hints of one Pix are read once', async () => {
    const id = newE2e();
    const res = await postCallback(
      { pix: Array.from({ length: 200 }, () => ({ endToEndId: id })) },
      { secret: SECRET },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ pix: [{ endToEndId: id, outcomes: ['not-confirmed'] }] });
  });
});
