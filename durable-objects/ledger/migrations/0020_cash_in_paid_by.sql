-- Who actually paid a Cash-In (docs/contract.md, Who paid): JSON {name?, document?, bankData, allowed}.
ALTER TABLE `cash_ins` ADD `paid_by` text;
