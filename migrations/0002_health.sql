CREATE TABLE `health_evidence` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`incident_id` text NOT NULL,
	`item` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `health_evidence_incident_idx` ON `health_evidence` (`incident_id`,`seq`);--> statement-breakpoint
CREATE TABLE `health_incidents` (
	`id` text PRIMARY KEY NOT NULL,
	`origin_type` text NOT NULL,
	`origin_id` text NOT NULL,
	`operation` text NOT NULL,
	`status` text NOT NULL,
	`incident` text NOT NULL,
	`affected_client_ids` text NOT NULL,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `health_incidents_started_idx` ON `health_incidents` (`started_at`);--> statement-breakpoint
CREATE INDEX `health_incidents_status_idx` ON `health_incidents` (`status`);--> statement-breakpoint
CREATE TABLE `health_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
