/**
 * Structured JSON logs, one object per line. Callers pass identifiers and outcomes only: never
 * secrets, tokens, signatures or full payer/payee documents.
 */
export function log(
  level: 'info' | 'warn' | 'error',
  message: string,
  fields: Record<string, unknown> = {},
): void {
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}
