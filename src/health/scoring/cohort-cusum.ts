// Cohort CUSUM scan: the small-bank cohort that the pooled window test (pooled-cohort.ts) cannot see in time.
// Four banks expecting one payment each per window in the evening and losing 74 % of them miss ~3 of 4
// per window: no window, and no selection-then-test split of a 50-minute fault, reaches z 3 (they
// read -2.4..-2.8). A CUSUM accumulates that evidence as it arrives. Each small bank keeps the CUSUM of the
// Poisson log-likelihood ratio "it delivers SCAN_RATE of its expected outcomes" against "it delivers
// its expectation" (S = max(0, S + llr)); the banks whose CUSUM has risen (SCAN_MEMBER_MIN) are pooled
// and their sum, less a per-bank price for having chosen them, is the scan statistic. Choosing the
// rising banks out of N is a multiple test, so the threshold grows with ln N. Pure: the state is a
// plain record, and the scanner (cohort-cusum-tracker.ts) keeps it across windows.

/** Outcomes observed and expected per small bank in one window (pooled-cohort.ts BankTally). */
export type ScanTally = Record<string, [number, number]>;

/**
 * The alternative the CUSUM looks for: the bank delivers 40 % of its expected outcomes (the issue's
 * cohorts lose 65-75 % of their payments; what a window shows is nearer 50-60 %, as payments already
 * under way still arrive). The no-fault drift e·(1 - ρ + r·ln ρ) stays negative while a bank delivers
 * r > 65 % of its expectation. The expectation is the bank's share of the other banks'
 * outcomes in the same window (bank-share.ts), known to a few %, so the alternative can sit this close:
 * with the seasonal baseline (30 % off for hours on small banks) it had to be 25 %, and a cohort that
 * delivers 44 % goes unseen. Swept with SCAN_DISPERSION and SCAN_BASE on the bench's tuning and
 * held-out worlds (60 no-fault days) and checked on unseen ones: src/health/README.md (How the rules were tuned), Cohort scan.
 */
export const SCAN_RATE = 0.4;
const LN_RATE = Math.log(SCAN_RATE);

/**
 * Per-bank cap on the CUSUM: a bank that went quiet an hour ago holds at most this much evidence, so
 * that a finished fault (or a long quiet spell) is forgotten within about an hour of normal traffic
 * (a bank expecting two payments a window drains ~0.5 a window) and cannot add to an unrelated bank's
 * rise later; the members of an open cohort restart at once (cohort-cusum-tracker.ts).
 */
export const SCAN_CAP = 8;

/**
 * Over-dispersion: a window's llr is divided by 1 + e/SCAN_DISPERSION (a quasi-likelihood with the
 * variance of a gamma-mixed Poisson, e + e²/10). A small bank's own traffic is bursty beyond Poisson
 * (its payers are a few clients' customers), more so the more it expects: at one payment a window the
 * llr keeps 91 % of its weight, at five two thirds. 5 was needed against the seasonal baseline's error;
 * against the share it discounted real cohorts more than no-fault excursions.
 */
export const SCAN_DISPERSION = 10;

/**
 * A bank is pooled once its CUSUM has risen this far (two windows without its one expected payment):
 * below it, a bank missing a payment by chance is the norm, not a signal.
 */
export const SCAN_MEMBER_MIN = 1;

/**
 * Each pooled bank pays this much of its CUSUM (the statistic is Σ (S_i - price) over the members): a
 * set of banks is blamed for what they lost beyond what a chance dip of each would explain.
 */
export const SCAN_MEMBER_PRICE = 0.5;

/**
 * Threshold = SCAN_BASE + SCAN_PER_LOG_BANK · ln(N), N the small banks scanned: the pooled sum is a
 * maximum over subsets of N banks, whose false-alarm rate grows with N. Calibrated on the bench's
 * no-fault days (60 days, 10 seeds, both operations) with the share expectation: the largest no-fault
 * margin over 7 + ln N was 0.6 (a Cash-Out evening), the smallest found cohort's 2.6; 8.5 sits between
 * them. See src/health/README.md (How the rules were tuned), Cohort scan.
 */
export const SCAN_BASE = 8.5;
export const SCAN_PER_LOG_BANK = 1;

/**
 * A scanned cohort needs at least this many rising banks, and names at least this many: two small
 * banks dipping together is the commonest chance coincidence (the pooled window test, which has its
 * own selection, still finds cohorts of two), and the cohorts are three or four banks.
 */
export const SCAN_MIN_MEMBERS = 3;

/** Per bank: CUSUM, and the outcomes observed/expected and windows since it last left zero. */
export interface BankScan {
  s: number;
  o: number;
  e: number;
  n: number;
}
export type ScanState = Record<string, BankScan>;

/** The llr of one window's count `o` where `e` were expected (> 0 favours the loss). */
export function scanLlr(o: number, e: number): number {
  return e * (1 - SCAN_RATE) + o * LN_RATE;
}

/** The next state after one window's tally: banks absent from the tally (not small, no baseline) drop. */
export function scanStep(prev: ScanState, tally: ScanTally): ScanState {
  const out: ScanState = {};
  for (const [id, [o, e]] of Object.entries(tally)) {
    if (!(e > 0)) continue;
    const p = prev[id];
    const s = Math.min(SCAN_CAP, Math.max(0, (p?.s ?? 0) + scanLlr(o, e) / (1 + e / SCAN_DISPERSION)));
    if (s <= 0) continue;
    // The sums restart with the rise, so they describe the loss the CUSUM is measuring.
    out[id] = p && p.s > 0 ? { s, o: p.o + o, e: p.e + e, n: p.n + 1 } : { s, o, e, n: 1 };
  }
  return out;
}

export function scanThreshold(banks: number): number {
  return SCAN_BASE + SCAN_PER_LOG_BANK * Math.log(Math.max(2, banks));
}

export interface ScanResult {
  /** Rising banks, sorted. */
  members: string[];
  statistic: number;
  threshold: number;
  /** Members' outcomes observed/expected since each began to rise, and the longest rise in windows. */
  observed: number;
  expected: number;
  windows: number;
}

/**
 * A bank's rise is pooled only while it is young (started within this many windows): a bank whose
 * baseline has been too high for hours (the morning of a weekday it has not learned yet) rises slowly
 * and steadily, and is judged on its own; a cohort's banks go quiet within the last hour.
 */
export const SCAN_MAX_AGE = 12;
/**
 * The banks of one cohort begin to rise within this many windows of each other (the banks at one
 * payment a window take a window or two to show a loss): the scan pools, for each start, the banks
 * whose rise began within this span, and keeps the best set.
 */
export const SCAN_SYNC = 4;

/** The pooled scan over `banks` small banks: the best set of banks rising together (null when < 2). */
export function scanCohort(state: ScanState, banks: number): ScanResult | null {
  const rising = Object.entries(state).filter(([, b]) => b.s >= SCAN_MEMBER_MIN && b.n <= SCAN_MAX_AGE);
  let best: ScanResult | null = null;
  for (const [, anchor] of rising) {
    const set = rising.filter(([, b]) => b.n <= anchor.n && b.n >= anchor.n - SCAN_SYNC);
    if (set.length < SCAN_MIN_MEMBERS) continue;
    let statistic = 0;
    let observed = 0;
    let expected = 0;
    for (const [, b] of set) {
      statistic += b.s - SCAN_MEMBER_PRICE;
      observed += b.o;
      expected += b.e;
    }
    if (best && statistic <= best.statistic) continue;
    best = {
      members: set.map(([id]) => id).sort(),
      statistic,
      threshold: scanThreshold(banks),
      observed,
      expected,
      windows: anchor.n,
    };
  }
  return best;
}

/**
 * A rising bank is named a member only when it delivered at most half of its expected outcomes since
 * its rise began: the CUSUM is sticky (a bank that dipped by chance as the cohort fell stays above
 * SCAN_MEMBER_MIN for several windows, and would be named with the banks that lost 70 %), and the
 * cohort is the banks losing payments now. Against the share a cohort's bank reads 44-50 %, so a
 * stricter 40 % leaves members unnamed, and a looser 60 % names normal banks that dipped
 * (src/health/README.md (How the rules were tuned), Cohort scan).
 */
export const SCAN_NAMED_DROP = 0.5;

export function namedMembers(state: ScanState, members: readonly string[]): string[] {
  return members.filter((m) => {
    const b = state[m];
    return b !== undefined && b.o <= (1 - SCAN_NAMED_DROP) * b.e;
  });
}
