-- Archived deliveries get an id index of their own (it empties whole as they expire after 7 days);
-- the entries 0009/0010 wrote into archive_index move there.
CREATE TABLE `archive_delivery_index` (
	`hash` integer NOT NULL,
	`segment` integer NOT NULL,
	PRIMARY KEY(`hash`, `segment`)
) WITHOUT ROWID;--> statement-breakpoint
INSERT OR IGNORE INTO `archive_delivery_index` (`hash`, `segment`)
  SELECT i.`hash`, i.`segment` FROM `archive_index` i JOIN `archive_segments` s ON s.`id` = i.`segment` WHERE s.`kind` = 'delivery';--> statement-breakpoint
DELETE FROM `archive_index` WHERE `segment` IN (SELECT `id` FROM `archive_segments` WHERE `kind` = 'delivery');
