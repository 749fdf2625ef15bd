-- A Pix Automático cycle's charge: its recurrence, cycle and the payer bank's attempts, on its Cash-In (docs/contract.md, Pix Automático).
ALTER TABLE `cash_ins` ADD `recurrence` text;
