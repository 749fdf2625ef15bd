-- Which client a real partner's Pix Automático recurrence (its idRec) belongs to (src/db/partner-recurrences.ts).
CREATE TABLE `partner_recurrences` (
	`id_rec` text PRIMARY KEY NOT NULL,
	`ispb` text NOT NULL,
	`client_id` text NOT NULL,
	`created_at` integer NOT NULL
);
