// What the baselines learn from a closed window (and what they must not).

import { present } from '../../domain/present';
import type { WindowContext } from '../attribution/attribution';
import type { AnalyzerConfig } from '../config';
import type { OpenIncidentState } from '../lifecycle/lifecycle';
import { rawResidual } from '../scoring/evaluate';
import { FAILURE_CODE_COUNT } from '../windows/code-layers';
import { type Entity, type HealthState, OPS, type OpIndex } from '../windows/state';
import { ringPush } from '../windows/stats';
import type { EntityView } from '../windows/views';
import { bankOutcomes, learnShare } from './bank-share';
import { updateSeasonal } from './baseline';

/**
 * Baselines learn only from windows where the entity looked normal: not anomalous, not even hurt by the
 * relaxed test, and not the origin of an open incident (a fault that the z-score starts to tolerate
 * must not teach the baseline that it is normal). After `rebaselineAfterWindows` such windows in a row
 * the baseline follows the data again (a lasting change of level).
 */
export function learn(
  state: HealthState,
  cfg: AnalyzerConfig,
  open: readonly OpenIncidentState[],
  op: OpIndex,
  ctx: WindowContext,
  startMs: number,
): void {
  const decay = 1 - 1 / cfg.ewWindows;
  const frozen = new Set<string>();
  for (const o of open) {
    if (o.record.operation !== OPS[op]) continue;
    if (o.kind === 'cohort') for (const m of o.members) frozen.add(`institution:${m}`);
    else frozen.add(`${o.kind}:${o.id}`);
  }
  const allBanks = bankOutcomes(ctx.institutions);
  const views: [Entity, EntityView][] = [[state.platform, ctx.platform]];
  for (const v of ctx.partners) views.push([present(state.partners.get(v.id), `partner ${v.id}`).entity, v]);
  for (const v of ctx.institutions)
    views.push([present(state.institutions.get(v.id), `institution ${v.id}`), v]);
  for (const v of ctx.clients) views.push([present(state.clients.get(v.id), `client ${v.id}`), v]);
  for (const [e, v] of views) {
    const eo = e.ops[op];
    const abnormal = v.suspicious || frozen.has(`${v.kind}:${v.id}`);
    eo.streak = abnormal ? eo.streak + 1 : 0;
    eo.prev = [v.counts.failed, v.counts.settled + v.counts.failed];
    eo.cusum = v.cusum;
    eo.cusumUp = v.cusumUp;
    eo.cusumHist = v.cusumHist;
    eo.prevErrors = v.errorsAnomalous;
    if (v.silent) eo.silent = v.silent;
    eo.prevCounts = [
      v.counts.created,
      v.expCreated ?? -1,
      v.counts.settled + v.counts.failed,
      v.expOutcomes ?? -1,
    ];
    const normal = !abnormal || eo.streak > cfg.rebaselineAfterWindows;
    e.learn[op] = normal;
    updateSeasonal(eo.created, startMs, v.counts.created, v.expCreated, normal, cfg);
    updateSeasonal(eo.outcomes, startMs, v.counts.settled + v.counts.failed, v.expOutcomes, normal, cfg);
    if (normal && v.kind === 'institution') {
      const own = v.counts.settled + v.counts.failed;
      learnShare(eo, own, allBanks - own);
    }
    if (normal) {
      const rErr = rawResidual(v, 'errors', cfg);
      if (rErr !== null) ringPush(eo.rErr, rErr, cfg.residualWindows);
      const rLat = rawResidual(v, 'latency', cfg);
      if (rLat !== null) ringPush(eo.rLat, rLat, cfg.residualWindows);
      const rExp = rawResidual(v, 'expiry', cfg);
      if (rExp !== null) ringPush(eo.rExp, rExp, cfg.residualWindows);
      for (let k = 0; k < FAILURE_CODE_COUNT; k++)
        eo.codeEw[k] = (eo.codeEw[k] ?? 0) * decay + (eo.codes[k] ?? 0);
      eo.codeEwN = eo.codeEwN * decay + v.counts.settled + v.counts.failed;
    }
  }
  for (const p of state.partners.values()) {
    const partnerNormal = p.entity.learn[op];
    for (const cells of [p.inst, p.clients]) {
      for (const c of cells.values()) {
        if (partnerNormal && (c.col === null || c.col.learn[op])) c.ew[op].decayAdd(c.acc[op], decay);
        c.acc[op].reset();
      }
    }
  }
  for (const [e] of views) e.ops[op].codes.fill(0);
}
