CREATE INDEX `webhook_deliveries_aggregate_idx` ON `webhook_deliveries` (`aggregate_id`,`seq`);--> statement-breakpoint
CREATE TABLE `archive_delivery_queue` (
	`aggregate_id` text PRIMARY KEY NOT NULL
) WITHOUT ROWID;
