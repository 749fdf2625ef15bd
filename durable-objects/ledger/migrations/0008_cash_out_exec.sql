ALTER TABLE `cash_outs` ADD `next_at` integer;--> statement-breakpoint
CREATE INDEX `cash_outs_next_idx` ON `cash_outs` (`next_at`) WHERE "cash_outs"."next_at" IS NOT NULL;--> statement-breakpoint
-- Live Cash-Outs move from one `cash-out-step` task each to the batched executor (cash-out-exec.ts):
-- each keeps the time its task was due, and one `cash-out-exec` task takes them all.
UPDATE `cash_outs` SET `next_at` = coalesce(
  (SELECT `due_at` FROM `tasks` WHERE `tasks`.`id` = 'cash-out-step:' || `cash_outs`.`transaction_id`),
  `requested_at`
) WHERE `stage` IN ('RECEIVED', 'APPROVED', 'SENDING', 'SENT');--> statement-breakpoint
DELETE FROM `tasks` WHERE `kind` = 'cash-out-step';--> statement-breakpoint
INSERT INTO `tasks` (`id`, `kind`, `ref`, `due_at`, `attempts`)
SELECT 'cash-out-exec:all', 'cash-out-exec', 'all', min(`next_at`), 0 FROM `cash_outs`
WHERE `next_at` IS NOT NULL HAVING count(*) > 0;
