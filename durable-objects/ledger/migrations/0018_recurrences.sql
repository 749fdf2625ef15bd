-- Pix Automático: one row per recurrence (docs/contract.md, Pix Automático).
CREATE TABLE `recurrences` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recurrence_id` text NOT NULL,
	`external_reference` text NOT NULL,
	`status` text NOT NULL,
	`frequency` text NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text,
	`amount` integer,
	`minimum_amount` integer,
	`payer_maximum_amount` integer,
	`retry_policy` text NOT NULL,
	`contract` text NOT NULL,
	`description` text,
	`payer_name` text NOT NULL,
	`payer_document` text NOT NULL,
	`payer_bank` text,
	`journey` text NOT NULL,
	`copy_and_paste` text,
	`partner_ispb` text NOT NULL,
	`webhook_url` text,
	`created_at` integer NOT NULL,
	`authorization_expires_at` integer NOT NULL,
	`approved_at` integer,
	`ended_at` integer,
	`cancelled_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recurrences_recurrence_id_idx` ON `recurrences` (`recurrence_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `recurrences_external_reference_idx` ON `recurrences` (`external_reference`);
