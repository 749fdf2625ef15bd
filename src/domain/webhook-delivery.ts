/**
 * The states of one webhook delivery (docs/contract.md, Webhooks), shared by the ledger and the operator API.
 */
export const DELIVERY_STATUSES = [
  'PENDING',
  'IN_FLIGHT',
  'DELIVERED',
  'FAILED',
  'GIVEN_UP',
  'UNDELIVERABLE',
] as const;

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
