-- Pix Automático: each cycle's charge, one per recurrence and cycle (docs/contract.md, Pix Automático).
CREATE TABLE `recurrence_charges` (
	`transaction_id` text PRIMARY KEY NOT NULL,
	`recurrence_id` text NOT NULL,
	`cycle` integer NOT NULL,
	`due_date` text NOT NULL,
	`failed_attempts` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recurrence_charges_cycle_idx` ON `recurrence_charges` (`recurrence_id`,`cycle`);
