-- The end-to-end id a refund was asked under (its 202 answer): a real partner's settled devolution
-- takes the network's rtrId as the refund's id, and the first id must keep finding the Cash-In.
ALTER TABLE `cash_ins` ADD `refund_request_id` text;--> statement-breakpoint
CREATE INDEX `cash_ins_refund_request_idx` ON `cash_ins` (`refund_request_id`) WHERE `refund_request_id` IS NOT NULL;
