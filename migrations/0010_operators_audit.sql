CREATE TABLE `operators` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operators_email_idx` ON `operators` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `operators_token_hash_idx` ON `operators` (`token_hash`);--> statement-breakpoint
CREATE TABLE `audit_records` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`at` integer NOT NULL,
	`actor_kind` text NOT NULL,
	`operator_id` text,
	`email` text,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`before` text,
	`after` text,
	`result` text NOT NULL,
	`request_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_records_id_idx` ON `audit_records` (`id`);--> statement-breakpoint
CREATE INDEX `audit_records_at_idx` ON `audit_records` (`at`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_records_operator_idx` ON `audit_records` (`operator_id`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_records_email_idx` ON `audit_records` (`email`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_records_action_idx` ON `audit_records` (`action`,`seq`);--> statement-breakpoint
CREATE TRIGGER `audit_records_no_update` BEFORE UPDATE ON `audit_records` BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `audit_records_no_delete` BEFORE DELETE ON `audit_records` BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
