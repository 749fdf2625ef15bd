/**
 * The posted body (docs/contract.md, Webhooks): `{eventType, eventAt, data}`, `eventAt` being the time of
 * sending. It follows the timestamp convention of the resource the event is about (docs/contract.md, Field
 * conventions): -03:00 for Cash-In and Cash-Out events, UTC for PIX health events and for the operator's
 * reconciliation alert, whose report (an operator view) is UTC: one alert, one clock.
 */
import { formatBrt, formatUtc } from '../domain/time';

export interface Envelope {
  eventType: string;
  eventAt: string;
  data: unknown;
}

export function eventAtFor(eventType: string, sentAt: number): string {
  return eventType.startsWith('PIX_INCIDENT_') || eventType.startsWith('RECONCILIATION_')
    ? formatUtc(sentAt)
    : formatBrt(sentAt);
}

export function envelope(eventType: string, data: unknown, sentAt: number): Envelope {
  return { eventType, eventAt: eventAtFor(eventType, sentAt), data };
}
