-- Every unapplied receipt for the operator's list (src/db/unapplied.ts): the store itself for money
-- no client can be named for (held_by 'partner'), a copy kept by its ClientLedger for the rest.
CREATE TABLE `unapplied_receipts` (
	`end_to_end_id` text PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`ispb` text NOT NULL,
	`txid` text,
	`client_id` text,
	`held_by` text NOT NULL,
	`amount` integer NOT NULL,
	`received_at` integer NOT NULL,
	`reason` text NOT NULL,
	`return_id` text NOT NULL,
	`stage` text NOT NULL,
	`return_end_to_end_id` text,
	`returned_at` integer,
	`failure` text,
	`next_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `unapplied_receipts_id_idx` ON `unapplied_receipts` (`id`);
--> statement-breakpoint
CREATE INDEX `unapplied_receipts_received_idx` ON `unapplied_receipts` (`received_at`);
--> statement-breakpoint
CREATE INDEX `unapplied_receipts_next_idx` ON `unapplied_receipts` (`next_at`) WHERE `next_at` IS NOT NULL;
--> statement-breakpoint
-- One report per partner and America/Sao_Paulo day (durable-objects/reconciliation.ts).
CREATE TABLE `reconciliation_reports` (
	`date` text NOT NULL,
	`ispb` text NOT NULL,
	`status` text NOT NULL,
	`checked_at` integer NOT NULL,
	`report` text NOT NULL,
	`alerted_at` integer,
	PRIMARY KEY(`date`, `ispb`)
);
--> statement-breakpoint
-- The clients with accounts at a partner, in id order: the daily reconciliation asks only those.
CREATE INDEX `accounts_ispb_client_idx` ON `accounts` (`ispb`,`client_id`);
