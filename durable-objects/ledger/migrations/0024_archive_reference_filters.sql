-- The externalReference filter of archived transactions (archive/reference-filter.ts): per kind, one
-- row per range of the hash space, its hashes Golomb-Rice coded. Hand-written like 0006-0022.
CREATE TABLE `archive_reference_filters` (
	`kind` text NOT NULL,
	`lo` integer NOT NULL,
	`bits` integer NOT NULL,
	`count` integer NOT NULL,
	`codes` blob NOT NULL,
	`since` integer NOT NULL,
	PRIMARY KEY(`kind`, `lo`)
);
