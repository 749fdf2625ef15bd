// Evidence that persists across windows, for one entity's view: failures and volumes pooled over two
// windows, the failure trend (CUSUM) as evidence, and a small bank's hurt for learning. Used by
// entityView (window-context.ts); the thresholds live in trend-rules.ts and evidence-rules.ts.
import type { AnalyzerConfig } from '../config';
import type { EntityView } from '../windows/views';
import { countOf, type Eval, evalCount, evalRate, evaluate, MIN_EW_OUTCOMES } from './evaluate';
import {
  CUSUM_ALARM_KINDS,
  CUSUM_RISE,
  CUSUM_TREND_SPAN,
  CUSUM_TREND_WINDOWS,
  cusumAlarm,
} from './trend-rules';

/**
 * Evidence that persists: failures pooled over this window and the previous one, judged strictly, count
 * when this window alone is at least relaxed-anomalous (so a fault that ended does not linger). A small
 * partner whose failure rate climbs (a ramp) or flickers between 10 % and 70 % every few minutes
 * reaches z 3 a window or two earlier than on single windows.
 *
 * A window's excess failures are evidence once (`prevUsed`): when the previous window was already
 * anomalous in failures (on its own, pooled or as a trend), this window must stand on its own (or on
 * the trend). Else one window's chance excess confirms the two windows an incident needs by itself: 5
 * failures of 42 where 0.47 were expected (pooled with the window before: z 3.0), then 3 of 28 (z 2.0 alone,
 * 3.6 pooled with those 5), open a false partner incident.
 */
export function pooledErrors(
  v: EntityView,
  prev: [number, number] | undefined,
  prevUsed: boolean,
  cfg: AnalyzerConfig,
): Eval | null {
  if (!prev || prev[1] === 0 || prevUsed) return null;
  if (!evaluate(v, 'errors', cfg, true).anomalous) return null;
  const pooled = pooledFailures(v, prev, cfg, false);
  return pooled.anomalous ? pooled : null;
}

/** Failures of this window and the previous one (`prev`: failed, outcomes) judged as one rate. */
function pooledFailures(
  v: EntityView,
  prev: [number, number] | undefined,
  cfg: AnalyzerConfig,
  relaxed: boolean,
): Eval {
  const c = v.counts;
  const ew = v.ew;
  const [failed, outcomes] = prev ?? [0, 0];
  return evalRate(
    'errors',
    c.failed + failed,
    c.settled + c.failed + outcomes,
    ew.failed,
    ew.settled + ew.failed,
    v.k.errors,
    cfg,
    relaxed,
  );
}

/**
 * The same persistence for volumes: an entity whose intake or outcomes stay low for two windows (a
 * merchant whose integration stopped, expecting 11 charges and seeing none twice: z 2.9 alone, 4.1
 * pooled) is judged on both windows pooled, strictly, when this window alone is at least
 * relaxed-anomalous (so passes the relaxed volume gate, 5) and both pooled pass the strict one (10): a
 * bank expecting 7-10 settlements a window on a Sunday evening that goes silent is otherwise never
 * judged at all (0 seen for 7 windows in a row, found only as a cohort).
 */
export function pooledCount(
  v: EntityView,
  family: 'created' | 'outcomes',
  prev: [number, number, number, number] | undefined,
  cfg: AnalyzerConfig,
): Eval | null {
  const [o0, e0] = family === 'created' ? [prev?.[0], prev?.[1]] : [prev?.[2], prev?.[3]];
  if (o0 === undefined || e0 === undefined || e0 < 0) return null;
  const [o, e] = countOf(v, family);
  if (e === null || e < cfg.minExpectedCount / 2) return null;
  if (!evaluate(v, family, cfg, true).anomalous) return null;
  const pooled = evalCount(family, o + o0, e + e0, v.k[family], cfg, false);
  return pooled.anomalous ? pooled : null;
}

/**
 * A bank expecting fewer outcomes per window than the relaxed gate (5) is never judged on one window, so
 * nothing kept it from learning a drop: a cohort of such banks losing most of their payments taught
 * their baselines a third of the loss before the pooled cohort test had its windows (observed: 17.5 ->
 * 11 expected per window for four banks), and hid. For learning only, such a bank is judged on its last
 * two windows pooled (relaxed: z 2, 10 % down); like every relaxed test it trims only the far low tail
 * of normal windows (a few %), so the baseline stays where it was.
 */
export function smallBankHurt(
  v: EntityView,
  prev: [number, number, number, number] | undefined,
  cfg: AnalyzerConfig,
): boolean {
  const e = v.expOutcomes;
  if (!prev || prev[3] < 0 || e === null || e >= cfg.minExpectedCount / 2) return false;
  const o = v.counts.settled + v.counts.failed + prev[2];
  return evalCount('outcomes', o, e + prev[3], v.k.outcomes, cfg, true).anomalous;
}

/** The last CUSUM_TREND_SPAN windows with outcomes, one bit each (1: the window favoured the fault). */
export const TREND_SPAN_MASK = (1 << CUSUM_TREND_SPAN) - 1;
export function favouring(hist: number): number {
  let n = 0;
  for (let h = hist; h > 0; h >>= 1) n += h & 1;
  return n;
}

/** No volume gates: only for the trend's evaluation, whose evidence is the CUSUM. */
const TREND_GATES = (cfg: AnalyzerConfig): AnalyzerConfig => ({ ...cfg, minOutcomes: 1, minFailures: 1 });

/** The failure CUSUM is evidence on its own (cusumAlarm, CUSUM_TREND_WINDOWS, CUSUM_ALARM_KINDS). */
export function trending(v: EntityView, upBefore: number, cfg: AnalyzerConfig): boolean {
  if (!CUSUM_ALARM_KINDS.includes(v.kind)) return false;
  const n = v.counts.settled + v.counts.failed;
  const ewN = v.ew.settled + v.ew.failed;
  if (n === 0 || ewN < MIN_EW_OUTCOMES) return false;
  const rise = v.counts.failed / n - v.ew.failed / ewN;
  const alarm = cusumAlarm(ewN / cfg.ewWindows);
  return v.cusum >= alarm && rise >= CUSUM_RISE && upBefore >= CUSUM_TREND_WINDOWS;
}

/**
 * The trend's evaluation: this window and the previous one pooled (no volume gate: the CUSUM is the
 * evidence), so the evidence and severity carry a rate, a z and an impact.
 */
export function trendEval(
  v: EntityView,
  prev: [number, number] | undefined,
  windows: number,
  cfg: AnalyzerConfig,
): Eval {
  const ev = pooledFailures(v, prev, TREND_GATES(cfg), true);
  return { ...ev, anomalous: true, basis: { kind: 'trend', windows } };
}
