-- Issue 16: a paid Cash-In's bytes once its events have gone out.
-- Deliveries keyed by their outbox seq (the rowid: no separate seq index); an event id carries its
-- seq (evt_<seq>_<random>), so no index on event_id either. Ids of older versions are found
-- through a partial index that holds only them.
CREATE TABLE `webhook_deliveries_new` (
	`seq` integer PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
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
);--> statement-breakpoint
INSERT INTO `webhook_deliveries_new` SELECT `seq`, `event_id`, `aggregate_id`, `event_type`, `url`, `status`,
  `attempts`, `dispatches`, `due_at`, `last_response_status`,
  CASE WHEN `status` = 'UNDELIVERABLE' AND `url` IS NULL THEN NULL ELSE `last_error` END,
  `last_attempt_at`, `delivered_at`, `created_at`, `updated_at` FROM `webhook_deliveries`;--> statement-breakpoint
DROP TABLE `webhook_deliveries`;--> statement-breakpoint
ALTER TABLE `webhook_deliveries_new` RENAME TO `webhook_deliveries`;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_legacy_id_idx` ON `webhook_deliveries` (`event_id`) WHERE `event_id` NOT GLOB 'evt_[0-9]*_*';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_open_idx` ON `webhook_deliveries` (`aggregate_id`) WHERE `due_at` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_idx` ON `webhook_deliveries` (`status`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_finished_idx` ON `webhook_deliveries` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_aggregate_idx` ON `webhook_deliveries` (substr(`aggregate_id`, -8));--> statement-breakpoint
-- Payloads and observations an older version kept after their job was done, and its watermark.
DELETE FROM `settings` WHERE `key` = 'prune.sentPayloads';--> statement-breakpoint
DELETE FROM `outbox` WHERE `channel` = 'health' AND `published_at` IS NOT NULL;--> statement-breakpoint
DELETE FROM `outbox` WHERE `seq` IN (SELECT `seq` FROM `webhook_deliveries` WHERE `status` IN ('DELIVERED', 'UNDELIVERABLE'));--> statement-breakpoint
-- Cash-In expiry runs from tasks: nothing reads (status, expires_at). End-to-end ids are looked up
-- by value only: rows without one stay out of their indexes.
DROP INDEX IF EXISTS `cash_ins_status_expires_idx`;--> statement-breakpoint
DROP INDEX IF EXISTS `cash_ins_e2e_idx`;--> statement-breakpoint
CREATE INDEX `cash_ins_e2e_idx` ON `cash_ins` (`end_to_end_id`) WHERE `end_to_end_id` IS NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS `cash_ins_refund_e2e_idx`;--> statement-breakpoint
CREATE INDEX `cash_ins_refund_e2e_idx` ON `cash_ins` (`refund_end_to_end_id`) WHERE `refund_end_to_end_id` IS NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS `cash_outs_e2e_idx`;--> statement-breakpoint
CREATE INDEX `cash_outs_e2e_idx` ON `cash_outs` (`end_to_end_id`) WHERE `end_to_end_id` IS NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS `cash_outs_refund_e2e_idx`;--> statement-breakpoint
CREATE INDEX `cash_outs_refund_e2e_idx` ON `cash_outs` (`refund_end_to_end_id`) WHERE `refund_end_to_end_id` IS NOT NULL;
