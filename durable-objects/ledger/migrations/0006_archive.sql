CREATE TABLE `archive_segments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`state` text NOT NULL,
	`seqs` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `archive_segments_key_idx` ON `archive_segments` (`key`);--> statement-breakpoint
CREATE TABLE `archive_index` (
	`hash` integer NOT NULL,
	`segment` integer NOT NULL,
	PRIMARY KEY(`hash`, `segment`)
) WITHOUT ROWID;
