// Types of scripts/dev-vars.mjs for TypeScript callers (scripts/soak/run.ts).
export function writeDevVars(file: string): string;
export function ensureDevVars(root: string): string;
