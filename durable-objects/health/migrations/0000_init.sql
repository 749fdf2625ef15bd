-- IF NOT EXISTS (hand-edited): analyzers created before these migrations made the same tables
-- themselves; they adopt this migration without losing their state.
CREATE TABLE IF NOT EXISTS `parked` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `seen` (
	`id` text PRIMARY KEY NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `seen_at_idx` ON `seen` (`at`);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `series` (
	`window` integer NOT NULL,
	`kind` text NOT NULL,
	`id` text NOT NULL,
	`operation` text NOT NULL,
	`created` integer NOT NULL,
	`settled` integer NOT NULL,
	`failed` integer NOT NULL,
	`expired` integer NOT NULL,
	`returned` integer NOT NULL,
	PRIMARY KEY(`window`, `kind`, `id`, `operation`)
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
