CREATE TABLE `accounts` (
	`number` text PRIMARY KEY NOT NULL,
	`ispb` text NOT NULL,
	`branch` text NOT NULL,
	`type` text NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `cash_ins` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` text NOT NULL,
	`internal_code` text NOT NULL,
	`external_reference` text NOT NULL,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`payer_name` text NOT NULL,
	`payer_document` text NOT NULL,
	`payer_bank` text,
	`partner_ispb` text NOT NULL,
	`settlement` text,
	`end_to_end_id` text,
	`refund_end_to_end_id` text,
	`refund_state` text DEFAULT 'NONE' NOT NULL,
	`reason` text,
	`refund_description` text,
	`webhook_url` text,
	`redirect_url` text,
	`flow` text NOT NULL,
	`requested_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer,
	`refunded_at` integer,
	`cancelled_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cash_ins_transaction_id_unique` ON `cash_ins` (`transaction_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `cash_ins_internal_code_unique` ON `cash_ins` (`internal_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `cash_ins_external_reference_idx` ON `cash_ins` (`external_reference`);--> statement-breakpoint
CREATE INDEX `cash_ins_requested_idx` ON `cash_ins` (`requested_at`,`seq`);--> statement-breakpoint
CREATE INDEX `cash_ins_e2e_idx` ON `cash_ins` (`end_to_end_id`);--> statement-breakpoint
CREATE INDEX `cash_ins_refund_e2e_idx` ON `cash_ins` (`refund_end_to_end_id`);--> statement-breakpoint
CREATE INDEX `cash_ins_status_expires_idx` ON `cash_ins` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `holds` (
	`id` text PRIMARY KEY NOT NULL,
	`account_number` text NOT NULL,
	`amount` integer NOT NULL,
	`ref` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `holds_account_idx` ON `holds` (`account_number`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idempotency_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`account_number` text NOT NULL,
	`type` text NOT NULL,
	`type_raw` text,
	`direction` text NOT NULL,
	`amount` integer NOT NULL,
	`balance_after` integer NOT NULL,
	`description` text,
	`end_to_end_id` text,
	`original_end_to_end_id` text,
	`ref` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_id_unique` ON `ledger_entries` (`id`);--> statement-breakpoint
CREATE INDEX `ledger_account_time_idx` ON `ledger_entries` (`account_number`,`created_at`,`seq`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`aggregate_id` text NOT NULL,
	`channel` text NOT NULL,
	`event_type` text NOT NULL,
	`data` text NOT NULL,
	`webhook_url` text,
	`occurred_at` integer NOT NULL,
	`published_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_event_id_unique` ON `outbox` (`event_id`);--> statement-breakpoint
CREATE INDEX `outbox_unpublished_idx` ON `outbox` (`channel`,`published_at`,`seq`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`ref` text NOT NULL,
	`due_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tasks_due_idx` ON `tasks` (`due_at`);