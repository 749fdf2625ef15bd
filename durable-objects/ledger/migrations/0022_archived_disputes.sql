CREATE TABLE `archived_disputes` (
	`seq` integer PRIMARY KEY NOT NULL,
	`transaction_id` text NOT NULL,
	`opened_at` integer NOT NULL,
	`status` text NOT NULL,
	`partner_ispb` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `archived_disputes_opened_idx` ON `archived_disputes` (`opened_at`,`seq`);--> statement-breakpoint
ALTER TABLE `cash_ins` ADD `bank_returned` integer;
