// Fault cases of the health score bench: one simulated day each, branched from the same warmed-up
// analyzer. Every fault carries the label the engine must produce (origin, operation, interval).
import type { Operation, OriginType } from '../../../../src/health/types';
import { type Fault, faults } from '../faults';
import { hashUniform } from '../random';
import { HOUR_MS, MINUTE_MS, type World } from '../world';

export interface Label {
  name: string;
  originType: OriginType;
  /** Expected origin.id; for PAYER_COHORT the member ISPBs instead. */
  originId: string;
  members?: string[];
  operation: Operation;
  from: number;
  to: number;
  /** Ramps: when the failure rate first passes 20 %. */
  rampCross?: number;
}

export interface FaultCase {
  name: string;
  faults: Fault[];
  labels: Label[];
}

/** The day's fault cases for one seed. `day` is the UTC midnight of the branched day. */
export function faultCases(world: World, seed: number, day: number): FaultCase[] {
  const u = (k: number) => hashUniform(seed, 0xfa, k);
  const at = (k: number, earliestH = 12, spanH = 8) =>
    day + Math.floor((earliestH + spanH * u(k)) * 60) * MINUTE_MS + Math.floor(u(k + 100) * 60_000);
  const dur = (k: number, min = 30, span = 60) => Math.floor(min + span * u(k + 200)) * MINUTE_MS;
  const P = world.partners;
  const B = world.institutions;
  const C = world.clients;
  const pick = <T>(list: readonly T[], k: number) => list[Math.floor(u(k + 300) * list.length)]!;
  const partner = (k: number) => pick(P, k).ispb;
  const nB = B.length;
  const out: FaultCase[] = [];
  const single = (
    name: string,
    f: Fault,
    originType: OriginType,
    originId: string,
    extra: Partial<Label> = {},
  ) =>
    out.push({
      name,
      faults: [f],
      labels: [{ name, originType, originId, operation: f.operation!, from: f.from, to: f.to, ...extra }],
    });

  let f0 = at(1);
  let p = partner(1);
  single(
    'partner-errors',
    faults.partnerFailure(p, 'CASH_OUT', f0, f0 + dur(1), 0.3 + 0.6 * u(2)),
    'BANKING_PARTNER',
    p,
  );
  f0 = at(3);
  p = partner(3);
  single('partner-silence', faults.partnerSilence(p, 'CASH_IN', f0, f0 + dur(3)), 'BANKING_PARTNER', p);
  f0 = at(4);
  p = partner(4);
  const flicker = faults.flicker(
    faults.partnerFailure(p, 'CASH_OUT', f0, f0 + dur(4, 45, 45)),
    0.1,
    0.7,
    seed,
  );
  single('partner-flicker', flicker, 'BANKING_PARTNER', p);
  for (const [k, rampMin, peak, op] of [
    [5, 90, 0.8, 'CASH_OUT'],
    [6, 40, 0.6, 'CASH_OUT'],
    [7, 150, 1, 'CASH_IN'],
  ] as const) {
    f0 = at(k, 11, 6);
    p = partner(k);
    const base = faults.partnerFailure(p, op, f0, f0 + (rampMin + 30) * MINUTE_MS);
    const ramp = faults.ramp(base, rampMin * MINUTE_MS, peak);
    single(`ramp-${rampMin}min-${Math.round(peak * 100)}%-${op}`, ramp, 'BANKING_PARTNER', p, {
      rampCross: faults.rampCrossing(base, rampMin * MINUTE_MS, peak, 0.2),
    });
  }
  f0 = at(8);
  const big = B[Math.floor(u(8) * 2)]!.ispb;
  single('institution-silence', faults.institutionSilence(big, f0, f0 + dur(8)), 'PAYER_INSTITUTION', big);
  f0 = at(9);
  const mid = B[Math.floor(u(9) * 4)]!.ispb;
  single(
    'institution-errors',
    faults.institutionErrors(mid, f0, f0 + dur(9), 0.5 + 0.4 * u(10)),
    'PAYER_INSTITUTION',
    mid,
  );
  // 3-4 small banks (the tail, but not the very smallest) losing ~70 % of their payments, with no errors.
  const size = 3 + Math.floor(u(11) * 2);
  const members = B.slice(nB - size - 1, nB - 1).map((b) => b.ispb);
  f0 = at(11);
  const cohort = faults.cohort(members, 'CASH_IN', f0, f0 + dur(11, 45, 45), 0.65 + 0.1 * u(12));
  single('small-bank-cohort', cohort, 'PAYER_COHORT', members.join(','), { members });
  f0 = at(13);
  const merchant = C[2 + Math.floor(u(13) * Math.min(3, C.length - 2))]!.clientId;
  single(
    'merchant-collapse',
    faults.merchantCollapse(merchant, 'CASH_IN', f0, f0 + dur(13)),
    'MERCHANT',
    merchant,
  );
  f0 = at(14);
  const outage = faults.connectpspIntakeOutage(f0, f0 + dur(14, 20, 40));
  out.push({
    name: 'connectpsp-intake',
    faults: [outage],
    labels: (['CASH_IN', 'CASH_OUT'] as const).map((operation) => ({
      name: 'connectpsp-intake',
      originType: 'CONNECTPSP' as const,
      originId: 'CONNECTPSP',
      operation,
      from: outage.from,
      to: outage.to,
    })),
  });
  f0 = at(15);
  single(
    'connectpsp-errors',
    faults.connectpspProcessingErrors('CASH_OUT', f0, f0 + dur(15)),
    'CONNECTPSP',
    'CONNECTPSP',
  );
  f0 = at(16);
  single(
    'pix-systemic',
    faults.pixSystemic('CASH_OUT', f0, f0 + dur(16), 0.5 + 0.4 * u(17)),
    'PIX_SYSTEMIC',
    'PIX',
  );
  // Two independent faults at once: a partner failing Cash-Outs while a big bank's payers cannot pay.
  f0 = at(18, 12, 6);
  p = partner(18);
  const a = faults.partnerFailure(p, 'CASH_OUT', f0, f0 + dur(18, 45, 30), 0.7);
  const b = faults.institutionSilence(B[0]!.ispb, f0 + 20 * MINUTE_MS, f0 + 20 * MINUTE_MS + dur(19, 40, 30));
  out.push({
    name: 'overlap',
    faults: [a, b],
    labels: [
      {
        name: 'overlap',
        originType: 'BANKING_PARTNER',
        originId: p,
        operation: 'CASH_OUT',
        from: a.from,
        to: a.to,
      },
      {
        name: 'overlap',
        originType: 'PAYER_INSTITUTION',
        originId: B[0]!.ispb,
        operation: 'CASH_IN',
        from: b.from,
        to: b.to,
      },
    ],
  });
  // One-window blips: never an incident.
  const w = 5 * MINUTE_MS;
  const t0 = Math.floor(at(20, 12, 2) / w) * w;
  out.push({
    name: 'blips',
    faults: [
      faults.blip(faults.partnerFailure(partner(20), 'CASH_OUT', 0, 0, 1), t0),
      faults.blip(faults.institutionSilence(B[0]!.ispb, 0, 0), t0 + 2 * HOUR_MS),
      faults.blip(faults.connectpspIntakeOutage(0, 0), t0 + 4 * HOUR_MS),
      faults.blip(faults.merchantCollapse(C[0]!.clientId, 'CASH_IN', 0, 0), t0 + 6 * HOUR_MS),
    ],
    labels: [],
  });
  return out;
}
