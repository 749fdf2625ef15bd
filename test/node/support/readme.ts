/**
 * README.md's runnable parts: the shell blocks marked `<!-- journey -->` (in order) and the
 * TypeScript blocks marked `<!-- snippet: name.ts -->`. A marker must sit on the line right above
 * its fenced block, so a block can never silently stop being tested.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ReadmeParts {
  journey: string[];
  snippets: Map<string, string>;
}

export function readmeParts(root: string): ReadmeParts {
  const lines = readFileSync(path.join(root, 'README.md'), 'utf8').split('\n');
  const journey: string[] = [];
  const snippets = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!-- (journey|snippet: ([\w.-]+\.ts)) -->$/.exec(lines[i] as string);
    if (!marker) continue;
    const fence = lines[i + 1] ?? '';
    const language = marker[2] ? 'ts' : 'sh';
    if (fence !== `\`\`\`${language}`)
      throw new Error(`README line ${i + 1}: marker not followed by \`\`\`${language}`);
    const end = lines.indexOf('```', i + 2);
    if (end < 0) throw new Error(`README line ${i + 2}: unterminated block`);
    const code = lines.slice(i + 2, end).join('\n');
    if (marker[2]) snippets.set(marker[2], code);
    else journey.push(code);
    i = end;
  }
  return { journey, snippets };
}
