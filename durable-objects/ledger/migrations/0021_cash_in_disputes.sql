-- A MED infraction against a received payment: the dispute recorded on its Cash-In (docs/contract.md, Disputes).
ALTER TABLE `cash_ins` ADD `dispute_id` text;--> statement-breakpoint
ALTER TABLE `cash_ins` ADD `dispute_status` text;--> statement-breakpoint
ALTER TABLE `cash_ins` ADD `dispute_opened_at` integer;--> statement-breakpoint
ALTER TABLE `cash_ins` ADD `dispute_respond_by` integer;--> statement-breakpoint
ALTER TABLE `cash_ins` ADD `dispute_blocked_amount` integer;--> statement-breakpoint
ALTER TABLE `cash_ins` ADD `dispute_defended_at` integer;--> statement-breakpoint
ALTER TABLE `cash_ins` ADD `dispute_closed_at` integer;--> statement-breakpoint
CREATE INDEX `cash_ins_dispute_idx` ON `cash_ins` (`dispute_opened_at`,`seq`) WHERE `dispute_id` IS NOT NULL;
