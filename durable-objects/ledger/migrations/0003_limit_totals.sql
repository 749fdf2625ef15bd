CREATE TABLE `limit_totals` (
	`key` text PRIMARY KEY NOT NULL,
	`period` text NOT NULL,
	`cents` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `limit_totals_period_idx` ON `limit_totals` (`period`);--> statement-breakpoint
-- Seed from the Cash-Outs already reserved (partner assigned) and not cancelled, by BRT (UTC-3) day,
-- month and payee-day, exactly as the reservation adds them from now on.
INSERT INTO `limit_totals` (`key`, `period`, `cents`)
SELECT 'D|' || d, d, SUM(`amount`) FROM (
  SELECT date(`requested_at` / 1000 - 10800, 'unixepoch') AS d, `amount` FROM `cash_outs`
  WHERE `status` != 'CANCELLED' AND `partner_ispb` IS NOT NULL
) GROUP BY d;
--> statement-breakpoint
INSERT INTO `limit_totals` (`key`, `period`, `cents`)
SELECT 'M|' || m, m, SUM(`amount`) FROM (
  SELECT strftime('%Y-%m', `requested_at` / 1000 - 10800, 'unixepoch') AS m, `amount` FROM `cash_outs`
  WHERE `status` != 'CANCELLED' AND `partner_ispb` IS NOT NULL
) GROUP BY m;
--> statement-breakpoint
INSERT INTO `limit_totals` (`key`, `period`, `cents`)
SELECT 'P|' || d || '|' || k, d, SUM(`amount`) FROM (
  SELECT date(`requested_at` / 1000 - 10800, 'unixepoch') AS d, `destination_key` AS k, `amount`
  FROM `cash_outs` WHERE `status` != 'CANCELLED' AND `partner_ispb` IS NOT NULL
) GROUP BY d, k;
