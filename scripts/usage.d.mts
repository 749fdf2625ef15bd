// Types of scripts/usage.mjs for TypeScript callers.
export function exitWithUsageIfAsked(usage: string, argv?: string[]): void;
