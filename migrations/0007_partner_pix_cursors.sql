CREATE TABLE `partner_pix_cursors` (
	`ispb` text PRIMARY KEY NOT NULL,
	`window_from` integer NOT NULL,
	`window_to` integer NOT NULL,
	`page` integer NOT NULL,
	`updated_at` integer NOT NULL
);
