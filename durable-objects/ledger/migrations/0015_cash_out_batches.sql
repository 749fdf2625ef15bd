-- Batch Cash-Outs: a batch's items are the contiguous cash_outs seqs first_seq..last_seq.
CREATE TABLE `cash_out_batches` (
	`batch_id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`count` integer NOT NULL,
	`amount` integer NOT NULL,
	`first_seq` integer NOT NULL,
	`last_seq` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `cash_out_batches_first_seq_idx` ON `cash_out_batches` (`first_seq`);
