CREATE TABLE `audit_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`record` text NOT NULL
);
