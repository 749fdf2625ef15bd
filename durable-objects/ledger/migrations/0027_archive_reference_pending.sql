-- The externalReference filter's pending buffer (archive/reference-filter.ts): hashes of archived
-- references not yet merged into their range, merged range by range once it passes its bound.
-- Hand-written like 0006-0026 (WITHOUT ROWID: the key is the row).
CREATE TABLE `archive_reference_pending` (
	`kind` text NOT NULL,
	`hash` integer NOT NULL,
	PRIMARY KEY(`kind`, `hash`)
) WITHOUT ROWID;
