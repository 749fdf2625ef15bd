ALTER TABLE `clients` ADD `merchant_name` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `merchant_city` text;