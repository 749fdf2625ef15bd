-- The aggregate index keyed by the first 8 characters of the aggregateId (32 random bits of a
-- transactionId) instead of all 36: ~40 % of its bytes; a look-up filters the full id after it.
DROP INDEX IF EXISTS `webhook_deliveries_aggregate_idx`;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_aggregate_idx` ON `webhook_deliveries` (substr(`aggregate_id`, 1, 8),`seq`);
