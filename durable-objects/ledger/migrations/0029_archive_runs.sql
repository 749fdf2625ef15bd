-- The manifest of closed days leaves archive_segments for R2: one row per folded (kind, UTC day)
-- run of segment ids, its segments' rows in R2 (archive/archive-fold.ts). Hand-written like 0006-0024.
CREATE TABLE `archive_runs` (
	`kind` text NOT NULL,
	`day_start` integer NOT NULL,
	`min_id` integer NOT NULL,
	`max_id` integer NOT NULL,
	`first_time` integer NOT NULL,
	`last_time` integer NOT NULL,
	`segments` integer NOT NULL,
	`rows` integer NOT NULL,
	PRIMARY KEY(`kind`, `day_start`, `min_id`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE INDEX `archive_runs_max_idx` ON `archive_runs` (`kind`,`max_id`);
