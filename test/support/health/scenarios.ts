// Named fault scenarios for `npm run health:generate -- --scenario <name>` and the docs. Each one puts its
// fault on the last generated day, 14:00-16:00 UTC (11:00-13:00 in Sao Paulo), after the baseline warm-up.
import { type Fault, faults } from './faults';
import type { World } from './world';

const HOUR = 3_600_000;
const MINUTE = 60_000;

export interface Scenario {
  description: string;
  /** The incidents a replay should print (origin type / operation). */
  expect: string;
  faults(world: World, dayStart: number): Fault[];
}

function window(dayStart: number): [number, number] {
  return [dayStart + 14 * HOUR, dayStart + 16 * HOUR];
}

export const SCENARIOS: Record<string, Scenario> = {
  normal: { description: 'seasonal traffic only', expect: 'no incident', faults: () => [] },
  'partner-failure': {
    description: 'the second partner fails 80 % of Cash-Outs (PROVIDER_UNAVAILABLE) for every bank',
    expect: 'BANKING_PARTNER / CASH_OUT, CONFIRMED',
    faults: (w, d) => [faults.partnerFailure(w.partners[1]!.ispb, 'CASH_OUT', ...window(d), 0.8)],
  },
  'institution-silence': {
    description: "the largest payer bank's customers cannot pay (Cash-In settlements stop, charges expire)",
    expect: 'PAYER_INSTITUTION / CASH_IN, INFERRED; no symptom incident',
    faults: (w, d) => [faults.institutionSilence(w.institutions[0]!.ispb, ...window(d))],
  },
  'institution-errors': {
    description: 'Cash-Outs to the largest bank fail (PAYEE_BANK_UNAVAILABLE) on every partner',
    expect: 'PAYER_INSTITUTION / CASH_OUT, CONFIRMED',
    faults: (w, d) => [faults.institutionErrors(w.institutions[0]!.ispb, ...window(d), 0.8)],
  },
  cohort: {
    description: 'three mid-sized banks fail Cash-Outs together',
    expect: 'PAYER_COHORT / CASH_OUT',
    faults: (w, d) => [
      faults.cohort(
        w.institutions.slice(2, 5).map((i) => i.ispb),
        'CASH_OUT',
        ...window(d),
        0.8,
      ),
    ],
  },
  merchant: {
    description: "one client's Cash-In volume collapses while everyone else is normal",
    expect: 'MERCHANT / CASH_IN (origin.id = clientId)',
    faults: (w, d) => [faults.merchantCollapse(w.clients[2]!.clientId, 'CASH_IN', ...window(d))],
  },
  'connectpsp-outage': {
    description: 'the gateway stops taking new transactions',
    expect: 'CONNECTPSP / CASH_IN and CASH_OUT, INFERRED',
    faults: (_w, d) => [faults.connectpspIntakeOutage(...window(d))],
  },
  'pix-systemic': {
    description: 'the PIX network fails Cash-Outs on every partner, intake stays normal',
    expect: 'PIX_SYSTEMIC / CASH_OUT',
    faults: (_w, d) => [faults.pixSystemic('CASH_OUT', ...window(d))],
  },
  deepening: {
    description: 'a partner degrades in steps: 30 %, 65 %, then 100 % of Cash-Outs failing',
    expect: 'BANKING_PARTNER / CASH_OUT: ACTIVE, WORSENING twice, RECOVERING, RESOLVED',
    faults: (w, d) => {
      const [from] = window(d);
      return [
        {
          ...faults.partnerFailure(w.partners[1]!.ispb, 'CASH_OUT', from, from + 90 * MINUTE, 0.3),
          steps: [
            { at: from + 30 * MINUTE, failRate: 0.65 },
            { at: from + 60 * MINUTE, failRate: 1 },
          ],
        },
      ];
    },
  },
  blips: {
    description: 'four one-window faults (partner, bank, platform, client) an hour apart',
    expect: 'no incident',
    faults: (w, d) => {
      const [from] = window(d);
      return [
        faults.blip(faults.partnerFailure(w.partners[1]!.ispb, 'CASH_OUT', 0, 0, 1), from),
        faults.blip(faults.institutionSilence(w.institutions[0]!.ispb, 0, 0), from + HOUR),
        faults.blip(faults.connectpspIntakeOutage(0, 0), from + 2 * HOUR),
        faults.blip(faults.merchantCollapse(w.clients[0]!.clientId, 'CASH_IN', 0, 0), from + 3 * HOUR),
      ];
    },
  },
};
