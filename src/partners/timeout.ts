/**
 * A bound on every call to a settlement partner. Without it a bank that never answers would hold
 * the integrator's request (a Cash-In, a refund) and the client's scheduled work (its tasks run one
 * after another) for as long as it pleases. A money-moving call that times out may still have
 * reached the partner, so it is answered as a retryable failure: the caller's recovery asks the
 * partner (`transferStatus`) before sending again under the same idempotency id. A status read that
 * times out throws, and the task that asked runs again later.
 */
import type { DisputeDefense, PartnerOutcome, RecurrencePort, SettlementPartnerPort } from './port';

/** How long the gateway waits for a partner's answer. */
export const PARTNER_TIMEOUT_MS = 5_000;

export class PartnerTimeout extends Error {
  constructor(ispb: string, call: string, ms: number) {
    super(`settlement partner ${ispb} did not answer ${call} within ${ms} ms`);
    this.name = 'PartnerTimeout';
  }
}

async function within<T>(call: Promise<T>, ms: number, timeout: () => PartnerTimeout): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeout()), ms);
  });
  try {
    return await Promise.race([call, expired]);
  } finally {
    clearTimeout(timer);
  }
}

const UNANSWERED = { ok: false, failureCode: 'PROVIDER_UNAVAILABLE', retryable: true } as const;

/** Each Pix Automático call bounded as a money-moving one: unanswered, a retryable failure. */
function boundedRecurrences(
  r: RecurrencePort,
  orUnanswered: <T>(name: string, call: Promise<PartnerOutcome<T>>) => Promise<PartnerOutcome<T>>,
): RecurrencePort {
  return {
    createRecurrence: (terms) => orUnanswered('createRecurrence', r.createRecurrence(terms)),
    recurrence: (idRec) => orUnanswered('recurrence', r.recurrence(idRec)),
    cancelRecurrence: (idRec) => orUnanswered('cancelRecurrence', r.cancelRecurrence(idRec)),
    recurringCharge: (txid) => orUnanswered('recurringCharge', r.recurringCharge(txid)),
    retryCharge: (txid, date) => orUnanswered('retryCharge', r.retryCharge(txid, date)),
  };
}

export function withTimeout(port: SettlementPartnerPort, ms = PARTNER_TIMEOUT_MS): SettlementPartnerPort {
  const bounded = <T>(name: string, call: Promise<T>) =>
    within(call, ms, () => new PartnerTimeout(port.ispb, name, ms));
  const orUnanswered = async <T>(name: string, call: Promise<PartnerOutcome<T>>) => {
    try {
      return await bounded(name, call);
    } catch (error) {
      if (error instanceof PartnerTimeout) return UNANSWERED;
      throw error;
    }
  };
  // The optional operations, bound once: present or not for the port's whole life.
  const removeCharge = port.removeCharge?.bind(port);
  const sendDisputeDefense = port.sendDisputeDefense?.bind(port);
  const infractions = port.infractions?.bind(port);
  return {
    ispb: port.ispb,
    issuesBrCode: port.issuesBrCode,
    reportsPayer: port.reportsPayer,
    registerCharge: (charge) => orUnanswered('registerCharge', port.registerCharge(charge)),
    ...(port.recurrences && { recurrences: boundedRecurrences(port.recurrences, orUnanswered) }),
    ...(removeCharge && {
      removeCharge: (txid: string) => orUnanswered('removeCharge', removeCharge(txid)),
    }),
    sendDevolution: (request) => orUnanswered('sendDevolution', port.sendDevolution(request)),
    sendPayment: (request) => orUnanswered('sendPayment', port.sendPayment(request)),
    transferStatus: (idempotencyId) => bounded('transferStatus', port.transferStatus(idempotencyId)),
    callRounds: (size) => port.callRounds(size),
    // Many payments at once are bounded by the rounds of calls they take; unanswered, every payment is a
    // retryable failure and every status unread, each asked again later.
    sendPayments: async (requests) => {
      const roundsMs = ms * Math.max(1, port.callRounds(requests.length));
      try {
        return await within(
          port.sendPayments(requests),
          roundsMs,
          () => new PartnerTimeout(port.ispb, 'sendPayments', roundsMs),
        );
      } catch {
        // Unanswered or broken: any of them may have reached the bank, so recovery asks first.
        return requests.map(() => UNANSWERED);
      }
    },
    transferStatuses: async (ids) => {
      const roundsMs = ms * Math.max(1, port.callRounds(ids.length));
      try {
        return await within(
          port.transferStatuses(ids),
          roundsMs,
          () => new PartnerTimeout(port.ispb, 'transferStatuses', roundsMs),
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return ids.map(() => ({ state: 'UNREAD' as const, reason }));
      }
    },
    devolutionStatus: (original, id) => bounded('devolutionStatus', port.devolutionStatus(original, id)),
    ...(sendDisputeDefense && {
      sendDisputeDefense: (defense: DisputeDefense) =>
        orUnanswered('sendDisputeDefense', sendDisputeDefense(defense)),
    }),
    ...(infractions && {
      infractions: (since: number) => orUnanswered('infractions', infractions(since)),
    }),
  };
}
