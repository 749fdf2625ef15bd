-- Gateway-hosted BR Code locations and Cash-In TxIds name a client by a random key, never by its
-- id (anyone can read a QR code or a charge payload). Existing clients get one now: 11 random
-- bytes as 22 hex characters; clients onboarded from now on get 22 random base-62 characters.
ALTER TABLE `clients` ADD `location_key` text;--> statement-breakpoint
UPDATE `clients` SET `location_key` = lower(hex(randomblob(11))) WHERE `location_key` IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `clients_location_key_idx` ON `clients` (`location_key`);
