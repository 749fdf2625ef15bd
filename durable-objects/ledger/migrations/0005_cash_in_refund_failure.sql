ALTER TABLE `cash_ins` ADD `refund_failure_code` text;--> statement-breakpoint
ALTER TABLE `cash_ins` ADD `refund_idempotency_key` text;