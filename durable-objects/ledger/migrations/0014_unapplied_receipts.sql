-- Unapplied receipts: money a partner reported that no Cash-In of this client can take, held for
-- the payer until its devolution settles (ledger/unapplied-ops.ts).
CREATE TABLE `unapplied_receipts` (
	`end_to_end_id` text PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`ispb` text NOT NULL,
	`txid` text,
	`amount` integer NOT NULL,
	`received_at` integer NOT NULL,
	`reason` text NOT NULL,
	`return_id` text NOT NULL,
	`stage` text NOT NULL,
	`return_end_to_end_id` text,
	`returned_at` integer,
	`failure` text,
	`booked_at` integer NOT NULL
);
--> statement-breakpoint
-- The suspense account: a credit when a receipt is booked, a debit when its return settles; what it
-- holds per partner is the sum. Read by day for the daily reconciliation.
CREATE TABLE `suspense_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`ispb` text NOT NULL,
	`direction` text NOT NULL,
	`amount` integer NOT NULL,
	`end_to_end_id` text NOT NULL,
	`original_end_to_end_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `suspense_entries_time_idx` ON `suspense_entries` (`ispb`,`created_at`);
--> statement-breakpoint
CREATE INDEX `suspense_entries_original_idx` ON `suspense_entries` (`original_end_to_end_id`) WHERE `original_end_to_end_id` IS NOT NULL;
--> statement-breakpoint
-- What was devolved of one payment, for the daily reconciliation: only devolution entries carry one.
CREATE INDEX `ledger_entries_original_e2e_idx` ON `ledger_entries` (`original_end_to_end_id`) WHERE `original_end_to_end_id` IS NOT NULL;
