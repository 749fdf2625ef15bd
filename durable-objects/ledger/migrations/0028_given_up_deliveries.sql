-- A GIVEN_UP delivery keeps its event's payload on its own row (the outbox row goes), so it can go to
-- the archive like DELIVERED ones and an operator retry reads it back from there
-- (archive/archive-deliveries.ts). Hand-written like 0006-0027; the UPDATE and DELETE move the
-- payloads of deliveries given up before it.
ALTER TABLE `webhook_deliveries` ADD `payload` text;--> statement-breakpoint
UPDATE `webhook_deliveries` SET `payload` = (SELECT o.`data` FROM `outbox` o WHERE o.`seq` = `webhook_deliveries`.`seq`)
  WHERE `status` = 'GIVEN_UP';--> statement-breakpoint
DELETE FROM `outbox` WHERE `seq` IN (SELECT `seq` FROM `webhook_deliveries` WHERE `status` = 'GIVEN_UP');--> statement-breakpoint
-- Archived delivery segments holding GIVEN_UP deliveries, with the seq range of those: the operator
-- list by status and the retry by event id find them here (one row per segment of up to 200).
CREATE TABLE `archive_given_up` (
	`segment` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`first_seq` integer NOT NULL,
	`last_seq` integer NOT NULL
);--> statement-breakpoint
CREATE INDEX `archive_given_up_last_idx` ON `archive_given_up` (`last_seq`);
