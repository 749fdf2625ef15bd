-- A Pix Automático cycle's charge: its recurrence, cycle and the payer bank's attempts, on its Cash-In (docs/contract.md, Pix Automático).
ALTER TABLE `cash_ins` ADD `recurrence` text;
--> statement-breakpoint
-- The QR journey's location code: GET /pix/rec/{locator} finds the recurrence by it.
ALTER TABLE `recurrences` ADD `location_code` text;--> statement-breakpoint
CREATE UNIQUE INDEX `recurrences_location_code_idx` ON `recurrences` (`location_code`) WHERE `location_code` IS NOT NULL;
