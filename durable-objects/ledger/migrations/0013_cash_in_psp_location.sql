-- A real partner's charge keeps the location its PSP registered it under (the BR Code's 26.25).
ALTER TABLE `cash_ins` ADD `psp_location` text;
