CREATE TABLE `webhook_deliveries` (
	`event_id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`aggregate_id` text NOT NULL,
	`event_type` text NOT NULL,
	`url` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`dispatches` integer DEFAULT 0 NOT NULL,
	`due_at` integer,
	`last_response_status` integer,
	`last_error` text,
	`last_attempt_at` integer,
	`delivered_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_seq_unique` ON `webhook_deliveries` (`seq`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_open_idx` ON `webhook_deliveries` (`aggregate_id`,`seq`) WHERE "webhook_deliveries"."due_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_idx` ON `webhook_deliveries` (`status`,`seq`);