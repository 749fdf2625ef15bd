-- Whose payments a client takes (docs/contract.md, Who paid): ANY or DECLARED_PAYER.
ALTER TABLE `clients` ADD `payer_policy` text DEFAULT 'ANY' NOT NULL;
