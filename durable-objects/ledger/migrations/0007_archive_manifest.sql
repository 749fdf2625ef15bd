ALTER TABLE `archive_segments` ADD `kind` text DEFAULT 'cash-in' NOT NULL;--> statement-breakpoint
ALTER TABLE `archive_segments` ADD `first_time` integer;--> statement-breakpoint
ALTER TABLE `archive_segments` ADD `first_seq` integer;--> statement-breakpoint
ALTER TABLE `archive_segments` ADD `last_time` integer;--> statement-breakpoint
ALTER TABLE `archive_segments` ADD `last_seq` integer;--> statement-breakpoint
ALTER TABLE `archive_segments` ADD `count` integer;--> statement-breakpoint
ALTER TABLE `archive_segments` ADD `totals` text;--> statement-breakpoint
CREATE INDEX `archive_segments_first_idx` ON `archive_segments` (`kind`,`first_time`,`first_seq`);--> statement-breakpoint
CREATE INDEX `archive_segments_last_idx` ON `archive_segments` (`kind`,`last_time`,`last_seq`);--> statement-breakpoint
CREATE TABLE `archive_totals` (
	`kind` text NOT NULL,
	`day` text NOT NULL,
	`status` text NOT NULL,
	`ispb` text NOT NULL,
	`bank` text,
	`count` integer NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`kind`, `day`, `status`, `ispb`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `archive_stale` (
	`segment` integer NOT NULL,
	`seq` integer NOT NULL,
	PRIMARY KEY(`segment`, `seq`)
) WITHOUT ROWID;
