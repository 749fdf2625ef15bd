-- Open webhook deliveries parked in R2 while their next attempt is far away
-- (webhooks/delivery-parking.ts). Hand-written like 0006-0029 (WITHOUT ROWID).
CREATE TABLE `webhook_parked_segments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`status` text NOT NULL,
	`due_at` integer NOT NULL,
	`first_seq` integer NOT NULL,
	`last_seq` integer NOT NULL,
	`rows` integer NOT NULL
);--> statement-breakpoint
CREATE INDEX `webhook_parked_segments_due_idx` ON `webhook_parked_segments` (`due_at`);--> statement-breakpoint
CREATE INDEX `webhook_parked_segments_last_idx` ON `webhook_parked_segments` (`last_seq`);--> statement-breakpoint
CREATE TABLE `webhook_parked` (
	`hash` integer NOT NULL,
	`segment` integer NOT NULL,
	PRIMARY KEY(`hash`, `segment`)
) WITHOUT ROWID;
