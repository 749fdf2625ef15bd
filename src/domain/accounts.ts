/** Account numbers the gateway issues: 8 digits, hyphen, a mod-11 check digit (e.g. 12345678-9). */
export function accountCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * ((i % 8) + 2);
  const rest = 11 - (sum % 11);
  return rest >= 10 ? '0' : String(rest);
}

export function newAccountNumber(): string {
  const n = crypto.getRandomValues(new Uint32Array(1))[0] as number;
  const digits = String(10_000_000 + (n % 90_000_000));
  return `${digits}-${accountCheckDigit(digits)}`;
}

export type AccountType = 'TRANSACTIONAL' | 'PROPRIETARY';
