-- Internal codes unique by construction (internal-codes.ts): the client's counter and its permutation key,
-- and a real partner's cycle charge's code kept until the charge is stored. Hand-written like 0006-0024.
CREATE TABLE `code_counter` (
	`id` integer PRIMARY KEY NOT NULL,
	`next` integer NOT NULL,
	`key` blob NOT NULL
);
--> statement-breakpoint
CREATE TABLE `cycle_codes` (
	`recurrence_id` text NOT NULL,
	`cycle` integer NOT NULL,
	`counter` integer NOT NULL,
	PRIMARY KEY(`recurrence_id`, `cycle`)
);
--> statement-breakpoint
-- No create checks a code any more: the archived codes' filters go.
DELETE FROM `archive_reference_filters` WHERE `kind` IN ('cash-in/code', 'cash-out/code');
