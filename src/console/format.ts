/**
 * How the console writes numbers and times: the Brazilian way (docs/operating.md, "Operator console"),
 * one helper per kind so no page formats its own. Money is exact: the integer centavos are split,
 * never divided into a float.
 */
import { formatBrt } from '../domain/time';

const INTEGER = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
const DECIMAL = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
const FINE = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/** `R$ 250.000,50` from 25000050 centavos; `—` for no value. */
export function brl(cents: number | null | undefined): string {
  if (cents == null) return '—';
  const abs = Math.abs(cents);
  const reais = INTEGER.format(Math.floor(abs / 100));
  return `${cents < 0 ? '-' : ''}R$ ${reais},${String(abs % 100).padStart(2, '0')}`;
}

/** An amount the API gives in reais (two decimals) as money. */
export const brlFromReais = (amount: number): string => brl(Math.round(amount * 100));

/** `1.234` */
export const count = (n: number): string => INTEGER.format(n);

/** `57.032,6 %`; `—` for no value. */
export const percent = (n: number | null | undefined): string => (n == null ? '—' : `${DECIMAL.format(n)} %`);

/** A statistic such as a z-score: `-3,42`. */
export const decimal = (n: number | null | undefined): string => (n == null ? '—' : FINE.format(n));

/** The console's one date style: `28/11/2026 22:35:00 BRT` (São Paulo, 24 h). */
export function brtText(ms: number): string {
  const iso = formatBrt(ms);
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)} BRT`;
}

/** A São Paulo calendar day (`2027-01-31`) in the same style: `31/01/2027`. */
export const brtDay = (date: string): string =>
  `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
