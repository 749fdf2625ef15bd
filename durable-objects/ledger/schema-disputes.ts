/** The MED dispute recorded on a Cash-In (docs/contract.md, Disputes; ledger/cash-in/dispute-ops.ts): columns of cash_ins. */
import { integer, text } from 'drizzle-orm/sqlite-core';

/** Indexed by cash_ins_dispute_idx (schema.ts) on (openedAt, seq) of disputed rows: GET /disputes. */
export const disputeColumns = {
  /** The infraction's id at the partner. */
  disputeId: text('dispute_id'),
  disputeStatus: text('dispute_status', { enum: ['OPEN', 'DEFENDED', 'ACCEPTED', 'REJECTED', 'CANCELLED'] }),
  disputeOpenedAt: integer('dispute_opened_at'),
  /** The partner's deadline for the client's defense. */
  disputeRespondBy: integer('dispute_respond_by'),
  /** Centavos the partner blocked: held on the TRANSACTIONAL account while the dispute is open. */
  disputeBlockedAmount: integer('dispute_blocked_amount'),
  disputeDefendedAt: integer('dispute_defended_at'),
  disputeClosedAt: integer('dispute_closed_at'),
};
