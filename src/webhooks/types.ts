/** Shapes shared by the ClientLedger (delivery state) and the queue consumer (the POST). */

/** Queue message: a reference only; the payload stays in the client's Durable Object. */
export interface DeliveryMessage {
  clientId: string;
  eventId: string;
  /** Which dispatch of the event this message carries; older ones are skipped. */
  dispatch: number;
}

/** What the consumer needs to POST one event, handed out by `claimWebhook`. */
export interface ClaimedWebhook {
  eventId: string;
  eventType: string;
  data: unknown;
  url: string;
}

export type AttemptOutcome =
  /** 2xx within the time-out. */
  | { kind: 'delivered'; status: number }
  /** Anything else: non-2xx, network error, time-out. Retried on the schedule. */
  | { kind: 'failed'; status?: number; error: string }
  /** The URL is not one we may POST to; never retried. */
  | { kind: 'refused'; error: string };

export function parseDeliveryMessage(body: unknown): DeliveryMessage | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { clientId, eventId, dispatch } = body as Record<string, unknown>;
  if (typeof clientId !== 'string' || typeof eventId !== 'string' || !Number.isInteger(dispatch)) {
    return undefined;
  }
  return { clientId, eventId, dispatch: dispatch as number };
}
