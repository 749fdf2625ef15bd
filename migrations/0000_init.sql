CREATE TABLE `accounts` (
	`number` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`ispb` text NOT NULL,
	`branch` text NOT NULL,
	`type` text NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `accounts_client_idx` ON `accounts` (`client_id`);--> statement-breakpoint
CREATE TABLE `clients` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`client_secret_hash` text NOT NULL,
	`application_token_hash` text NOT NULL,
	`application_token_active` integer NOT NULL,
	`crypto_token_sealed` text,
	`webhook_secret_sealed` text NOT NULL,
	`statement_start_date` text NOT NULL,
	`partners` text NOT NULL,
	`limits` text NOT NULL,
	`approval_threshold_cents` integer,
	`blocked_payer_documents` text NOT NULL,
	`health_webhook_url` text,
	`rate_limit_per_second` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `clients_application_token_hash_unique` ON `clients` (`application_token_hash`);--> statement-breakpoint
CREATE TABLE `partner_faults` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ispb` text NOT NULL,
	`operation` text NOT NULL,
	`failure_rate_ppm` integer NOT NULL,
	`failure_code` text,
	`latency_ms` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sandbox_transfers` (
	`ispb` text NOT NULL,
	`idempotency_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`requests` integer DEFAULT 1 NOT NULL,
	`outcome` text NOT NULL,
	`failure_code` text,
	`end_to_end_id` text,
	`created_at` integer NOT NULL,
	`settles_at` integer NOT NULL,
	PRIMARY KEY(`ispb`, `idempotency_id`)
);
