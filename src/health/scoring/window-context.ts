// One window's view of the traffic for one operation: every entity's counts, expectations (seasonal,
// scaled by what intake explains), dispersion and evaluations, plus cell access for attribution.

import { present } from '../../domain/present';
import type { WindowContext } from '../attribution/attribution';
import { shareExpected } from '../baselines/bank-share';
import { expectedCount, levelOf, relativeKappa } from '../baselines/baseline';
import type { AnalyzerConfig } from '../config';
import { dominantCode } from '../windows/code-layers';
import { Counts } from '../windows/counts';
import { type Cell, type Entity, type HealthState, OPS, type OpIndex } from '../windows/state';
import { kappa } from '../windows/stats';
import type { CellData, EntityView } from '../windows/views';
import { countOf, evaluate, type Family, MIN_EW_OUTCOMES, PRIMARY_FAMILIES } from './evaluate';
import {
  COMMON_DIP,
  CREATED_BLAMES,
  cashInIntakeRatio,
  countsAgainst,
  intakeRatio,
  MERCHANT_MEDIAN_DAYS,
} from './evidence-rules';
import {
  favouring,
  pooledCount,
  pooledErrors,
  smallBankHurt,
  TREND_SPAN_MASK,
  trendEval,
  trending,
} from './persistence';
import { SILENCE_FAMILY, silenceEval, silenceRestIntake, silenceRun } from './silence-rules';
import { CUSUM_CAP, CUSUM_SUSPECT, CUSUM_WINDOW_MAX, rateLlr } from './trend-rules';

/** Standardised residuals needed before the MAD dispersion replaces the Poisson floor, and its cap. */
const KAPPA_MIN_VALUES = 8;
const KAPPA_CAP = 10;

export function entityView(
  cfg: AnalyzerConfig,
  e: Entity,
  op: OpIndex,
  counts: Counts,
  ew: Counts,
  startMs: number,
  intake?: number,
  createdScale = 1,
  /** The parent's recent levels (created, outcomes) a thin level is shrunk towards (BANK_LEVEL_PRIOR). */
  towards: [number, number] | null = null,
  /** A bank's: the other banks' outcomes this window (its silence is also judged against its share). */
  otherBanks: number | null = null,
  /** A merchant's: the rest of the platform's intake ratio without shrinkage, when it is down (silenceRestIntake). */
  restIntake = 1,
): EntityView {
  const eo = e.ops[op];
  const lowest = e.kind === 'client' ? MERCHANT_MEDIAN_DAYS : 0;
  const expCreatedRaw = expectedCount(eo.created, startMs, cfg, towards?.[0] ?? null, lowest);
  const expCreated = expCreatedRaw === null ? null : expCreatedRaw * createdScale;
  const expOutcomesRaw = expectedCount(eo.outcomes, startMs, cfg, towards?.[1] ?? null, lowest);
  const expOutcomes =
    expOutcomesRaw === null
      ? null
      : expOutcomesRaw *
        (intake ??
          (op === 0 && e.kind !== 'client'
            ? cashInIntakeRatio(counts.created, expCreatedRaw, eo.prevCounts)
            : intakeRatio(counts.created, expCreatedRaw)));
  const v: EntityView = {
    kind: e.kind,
    id: e.id,
    counts,
    ew,
    expCreated,
    expOutcomes,
    k: {
      // A merchant's new transactions: the recent MAD, floored by the dispersion two days of the series
      // imply at this window's level (its own bursts and lulls, baselines/baseline.ts
      // RELATIVE_NOISE_WINDOWS). Partners, banks and the platform carry many clients, whose lulls average
      // out; the platform's own intake is blamed only beyond 75 %, and its breadth vote (every client
      // silent) must stay readable. Outcomes keep the MAD: their expectation follows intake.
      created:
        e.kind === 'client'
          ? Math.max(
              kappa(eo.created.resid, KAPPA_MIN_VALUES, KAPPA_CAP),
              relativeKappa(eo.created, expCreated),
            )
          : kappa(eo.created.resid, KAPPA_MIN_VALUES, KAPPA_CAP),
      outcomes: kappa(eo.outcomes.resid, KAPPA_MIN_VALUES, KAPPA_CAP),
      errors: kappa(eo.rErr, KAPPA_MIN_VALUES, KAPPA_CAP),
      latency: kappa(eo.rLat, KAPPA_MIN_VALUES, KAPPA_CAP),
      expiry: kappa(eo.rExp, KAPPA_MIN_VALUES, KAPPA_CAP),
    },
    codes: eo.codes,
    codeEw: eo.codeEw,
    codeEwN: eo.codeEwN,
    evals: {},
    loose: {},
    anomalous: false,
    suspicious: false,
    cusum: 0,
    llr: 0,
    cusumUp: 0,
    cusumHist: 0,
    errorsAnomalous: false,
  };
  const n = counts.settled + counts.failed;
  const ewN = ew.settled + ew.failed;
  if (ewN >= MIN_EW_OUTCOMES) {
    v.llr = rateLlr(counts.failed, n, ew.failed / ewN, cfg.rateFloor);
    v.cusum = Math.min(CUSUM_CAP, Math.max(0, (eo.cusum ?? 0) + Math.min(v.llr, CUSUM_WINDOW_MAX)));
    // A window without outcomes is no evidence either way: it neither extends nor breaks a trend (a
    // small partner's ramp has empty windows; restarting the count there delays it by windows).
    v.cusumUp = v.llr > 0 ? (eo.cusumUp ?? 0) + 1 : n === 0 ? (eo.cusumUp ?? 0) : 0;
    const hist = eo.cusumHist ?? 0;
    v.cusumHist = n === 0 ? hist : ((hist << 1) | (v.llr > 0 ? 1 : 0)) & TREND_SPAN_MASK;
  }
  if (eo.prevCounts) v.prevOutcomes = [eo.prevCounts[2], eo.prevCounts[3]];
  const silenceFamily = SILENCE_FAMILY[e.kind];
  if (silenceFamily) {
    const [seen, scaled] = countOf(v, silenceFamily);
    const expected =
      e.kind === 'client' && expCreatedRaw !== null
        ? expCreatedRaw * Math.min(createdScale, restIntake)
        : scaled;
    const share = otherBanks === null ? null : shareExpected(eo, otherBanks);
    v.silent = silenceRun(e.kind, eo.silent, seen, expected, share);
  }
  const families: readonly Family[] = op === 0 ? [...PRIMARY_FAMILIES, 'expiry'] : PRIMARY_FAMILIES;
  for (const f of families) {
    let ev = evaluate(v, f, cfg);
    if (f === 'errors' && !ev.anomalous) ev = pooledErrors(v, eo.prev, eo.prevErrors === true, cfg) ?? ev;
    if (f === 'errors' && !ev.anomalous && trending(v, favouring(eo.cusumHist ?? 0), cfg)) {
      const windows = Math.max(v.cusumUp, favouring(v.cusumHist));
      ev = ev.evaluated
        ? { ...ev, anomalous: true, basis: { kind: 'trend', windows } }
        : trendEval(v, eo.prev, windows, cfg);
    }
    if ((f === 'created' || f === 'outcomes') && !ev.anomalous)
      ev = pooledCount(v, f, eo.prevCounts, cfg) ?? ev;
    if (f === silenceFamily && !ev.anomalous && v.silent) ev = silenceEval(v.silent, f) ?? ev;
    if (f === 'errors') v.errorsAnomalous = ev.anomalous;
    if (ev.anomalous) {
      const layer =
        f === 'errors'
          ? (dominantCode(eo.codes, eo.codeEw, eo.codeEwN, counts.settled + counts.failed)?.layer ?? null)
          : null;
      if (!countsAgainst(e.kind, OPS[op], f, ev, layer)) ev.anomalous = false;
    }
    v.evals[f] = ev;
    if (ev.anomalous && f !== 'expiry') v.anomalous = true;
  }
  for (const f of PRIMARY_FAMILIES) {
    const loose = evaluate(v, f, cfg, true);
    v.loose[f] = loose;
    // Only evidence that may blame this kind of slice keeps its baseline from learning: a bank or a
    // partner with fewer new transactions on a holiday is not hurt, and must learn the quieter day.
    if (f === 'created' && !CREATED_BLAMES.includes(e.kind)) continue;
    if (loose.anomalous || v.evals[f]?.anomalous) v.suspicious = true;
  }
  if (e.kind === 'institution' && !v.suspicious && smallBankHurt(v, eo.prevCounts, cfg)) v.suspicious = true;
  if (v.cusum >= CUSUM_SUSPECT) v.suspicious = true;
  return v;
}

export function buildContext(
  state: HealthState,
  cfg: AnalyzerConfig,
  op: OpIndex,
  startMs: number,
): WindowContext {
  const instSums = new Map<Entity, [Counts, Counts]>();
  const clientSums = new Map<Entity, [Counts, Counts]>();
  const platformCounts = new Counts();
  const platformEw = new Counts();
  const partnerViews: EntityView[] = [];
  const accumulate = (sums: Map<Entity, [Counts, Counts]>, e: Entity, c: Cell) => {
    let s = sums.get(e);
    if (!s) {
      s = [new Counts(), new Counts()];
      sums.set(e, s);
    }
    s[0].add(c.acc[op]);
    s[1].add(c.ew[op]);
  };
  for (const p of state.partners.values()) {
    const counts = new Counts();
    const ew = new Counts();
    for (const c of p.inst.values()) {
      counts.add(c.acc[op]);
      ew.add(c.ew[op]);
      if (c.col) accumulate(instSums, c.col, c);
    }
    for (const c of p.clients.values()) accumulate(clientSums, present(c.col, "a client cell's column"), c);
    platformCounts.add(counts);
    platformEw.add(ew);
    partnerViews.push(entityView(cfg, p.entity, op, counts, ew, startMs));
  }
  // A Cash-In charge has no bank until paid: banks' outcomes are scaled by the platform's intake.
  const platformExpected = expectedCount(state.platform.ops[op].created, startMs, cfg);
  const platformIntake =
    op === 0
      ? cashInIntakeRatio(platformCounts.created, platformExpected, state.platform.ops[op].prevCounts)
      : intakeRatio(platformCounts.created, platformExpected);

  const po = state.platform.ops[op];
  const platformLevels: [number, number] = [levelOf(po.created), levelOf(po.outcomes)];
  let allBanks = 0;
  for (const [c] of instSums.values()) allBanks += c.settled + c.failed;
  const institutions = [...instSums].map(([e, [c, ew]]) =>
    entityView(
      cfg,
      e,
      op,
      c,
      ew,
      startMs,
      platformIntake,
      1,
      platformLevels,
      allBanks - c.settled - c.failed,
    ),
  );
  // A merchant's intake is judged against the rest of the platform's: a holiday or our own outage lowers
  // every client alike and is explained by the parent, not by each merchant.
  const platformExpCreated = platformExpected;
  const clients = [...clientSums].map(([e, [c, ew]]) => {
    const own = expectedCount(e.ops[op].created, startMs, cfg);
    const common =
      own === null || platformExpCreated === null
        ? 1
        : intakeRatio(platformCounts.created - c.created, Math.max(0, platformExpCreated - own));
    if (common >= COMMON_DIP) return entityView(cfg, e, op, c, ew, startMs, undefined, 1);
    const rest = silenceRestIntake(
      platformCounts.created - c.created,
      (platformExpCreated ?? 0) - (own ?? 0),
    );
    return entityView(cfg, e, op, c, ew, startMs, undefined, common, null, null, rest);
  });
  const platform = entityView(cfg, state.platform, op, platformCounts, platformEw, startMs);
  const index = new Map<string, EntityView>();
  for (const v of [...partnerViews, ...institutions, ...clients]) index.set(`${v.kind}:${v.id}`, v);
  const partners = state.partners;
  return {
    cfg: cfg,
    op: OPS[op],
    windowStartMs: startMs,
    platform,
    partners: partnerViews,
    institutions,
    clients,
    cell(partnerId, kind, id): CellData | undefined {
      const p = partners.get(partnerId);
      const c = kind === 'institution' ? p?.inst.get(id) : p?.clients.get(id);
      return c ? { acc: c.acc[op], ew: c.ew[op] } : undefined;
    },
    *cellsOf(partnerId, kind) {
      const p = partners.get(partnerId);
      if (!p) return;
      for (const [id, c] of kind === 'institution' ? p.inst : p.clients) {
        yield [id, { acc: c.acc[op], ew: c.ew[op] }] as [string, CellData];
      }
    },
    find(kind, id) {
      return kind === 'platform' ? platform : index.get(`${kind}:${id}`);
    },
  };
}
