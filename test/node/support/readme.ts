/**
 * The runnable parts of the integrator's guide (docs/integrating.md, where the README points): the shell blocks marked `<!-- journey -->` (in order) and the
 * TypeScript blocks marked `<!-- snippet: name.ts -->`. A marker must sit on the line right above
 * its fenced block, so a block can never silently stop being tested.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ReadmeParts {
  journey: string[];
  snippets: Map<string, string>;
}

/** The guide the journey test runs, relative to the repository root. */
export const JOURNEY_DOC = 'docs/integrating.md';

export function readmeParts(root: string): ReadmeParts {
  const lines = readFileSync(path.join(root, JOURNEY_DOC), 'utf8').split('\n');
  const journey: string[] = [];
  const snippets = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!-- (journey|snippet: ([\w.-]+\.ts)) -->$/.exec(lines[i] as string);
    if (!marker) continue;
    const fence = lines[i + 1] ?? '';
    const language = marker[2] ? 'ts' : 'sh';
    if (fence !== `\`\`\`${language}`)
      throw new Error(`${JOURNEY_DOC} line ${i + 1}: marker not followed by \`\`\`${language}`);
    const end = lines.indexOf('```', i + 2);
    if (end < 0) throw new Error(`${JOURNEY_DOC} line ${i + 2}: unterminated block`);
    const code = lines.slice(i + 2, end).join('\n');
    if (marker[2]) snippets.set(marker[2], code);
    else journey.push(code);
    i = end;
  }
  return { journey, snippets };
}
