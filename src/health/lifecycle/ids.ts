// Deterministic incident ids: the same origin, operation and start give the same id on every replay,
// and nothing in the id reveals the origin (a MERCHANT's clientId must not leak through it).

function fnv1a(text: string, seed: number, reverse: boolean): number {
  let h = seed >>> 0;
  for (let j = 0; j < text.length; j++) {
    h ^= text.charCodeAt(reverse ? text.length - 1 - j : j);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function incidentIdFor(
  originType: string,
  originKey: string,
  operation: string,
  startedAt: string,
): string {
  const text = `${originType}|${originKey}|${operation}|${startedAt}`;
  const a = fnv1a(text, 0x811c9dc5, false).toString(16).padStart(8, '0');
  const b = fnv1a(text, 0x2166136b, true).toString(16).padStart(8, '0');
  return `inc_${a}${b}`;
}
