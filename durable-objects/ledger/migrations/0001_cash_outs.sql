CREATE TABLE `cash_outs` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` text NOT NULL,
	`internal_code` text NOT NULL,
	`external_reference` text NOT NULL,
	`status` text NOT NULL,
	`stage` text NOT NULL,
	`amount` integer NOT NULL,
	`description` text,
	`webhook_url` text,
	`payee_name` text NOT NULL,
	`payee_document` text NOT NULL,
	`destination` text NOT NULL,
	`destination_key` text NOT NULL,
	`payee_bank` text,
	`partner_ispb` text,
	`settlement` text,
	`end_to_end_id` text,
	`refund_end_to_end_id` text,
	`failure_code` text,
	`reason` text,
	`requested_at` integer NOT NULL,
	`completed_at` integer,
	`cancelled_at` integer,
	`refunded_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cash_outs_transaction_id_unique` ON `cash_outs` (`transaction_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `cash_outs_internal_code_unique` ON `cash_outs` (`internal_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `cash_outs_external_reference_idx` ON `cash_outs` (`external_reference`);--> statement-breakpoint
CREATE INDEX `cash_outs_requested_idx` ON `cash_outs` (`requested_at`,`seq`);--> statement-breakpoint
CREATE INDEX `cash_outs_e2e_idx` ON `cash_outs` (`end_to_end_id`);--> statement-breakpoint
CREATE INDEX `cash_outs_refund_e2e_idx` ON `cash_outs` (`refund_end_to_end_id`);--> statement-breakpoint
CREATE INDEX `cash_outs_destination_idx` ON `cash_outs` (`destination_key`,`requested_at`);