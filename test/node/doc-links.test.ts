/**
 * Every relative link of the documentation resolves: README.md, docs/*.md and the folder READMEs
 * under src/ and durable-objects/ link to files that exist, and a `#anchor` names a heading of its
 * target (GitHub's slugs). A document moved, renamed or re-headed without its links fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { brokenLinks, links } from './support/doc-links';

function readIfFile(file: string): string | undefined {
  return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : undefined;
}

function folderReadmes(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...folderReadmes(full));
    else if (entry.name === 'README.md') out.push(full);
  }
  return out;
}

const DOCS = [
  path.join(ROOT, 'README.md'),
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(ROOT, 'docs', name)),
  ...folderReadmes(path.join(ROOT, 'src')),
  ...folderReadmes(path.join(ROOT, 'durable-objects')),
];

describe('documentation links', () => {
  it('every relative link and anchor resolves', () => {
    const problems = DOCS.flatMap((file) => brokenLinks(file, readIfFile));
    expect(problems).toEqual([]);
    // The documents do link to each other: the check is not vacuous.
    expect(DOCS.reduce((n, file) => n + links(readFileSync(file, 'utf8')).length, 0)).toBeGreaterThan(40);
  });

  it('the README stays a page a newcomer reads: at most 250 lines', () => {
    expect(
      readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length,
    ).toBeLessThanOrEqual(250);
  });

  it('finds a missing file, a missing heading and an anchor into a missing section', () => {
    const files: Record<string, string> = {
      [path.join(ROOT, 'a.md')]:
        '# A\n\n## Set up: `npm start`\n\n[ok](b.md#the-b) [self](#set-up-npm-start) `[code](nowhere.md)`\n' +
        '[gone](c.md) [bad anchor](b.md#nope) [bad self](#nope)\n```\n[fenced](nowhere.md)\n```\n',
      [path.join(ROOT, 'b.md')]: '# The B\n',
    };
    expect(brokenLinks(path.join(ROOT, 'a.md'), (file) => files[file])).toEqual([
      'a.md:6 c.md (no such file)',
      'a.md:6 b.md#nope (no heading #nope)',
      'a.md:6 #nope (no heading #nope)',
    ]);
  });
});

describe('license', () => {
  it('LICENSE, package.json and the OpenAPI document name the same license', () => {
    const identifier = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).license;
    expect(identifier).toBe('LicenseRef-ConnectPSP-Proprietary');
    expect(readFileSync(path.join(ROOT, 'LICENSE'), 'utf8').split('\n')[0]).toContain(`SPDX: ${identifier}`);
    expect(readFileSync(path.join(ROOT, 'src/openapi/document.ts'), 'utf8')).toContain(
      `identifier: '${identifier}'`,
    );
  });
});

describe('citations of docs/contract.md in the code', () => {
  it('every "docs/contract.md, <section>" names a heading of docs/contract.md', () => {
    const headings = [
      ...readFileSync(path.join(ROOT, 'docs/contract.md'), 'utf8').matchAll(/^## (.+)$/gm),
    ].map((m) => m[1] as string);
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return sources(full);
        return /\.(ts|mjs|toml)$/.test(entry.name) ? [full] : [];
      });
    const files = [...sources(path.join(ROOT, 'src')), ...sources(path.join(ROOT, 'durable-objects'))];
    const unknown: string[] = [];
    let cited = 0;
    for (const file of files) {
      // A citation may wrap onto the next comment line: join the comment text first.
      const text = readFileSync(file, 'utf8').replace(/\n\s*(?:\*|\/\/)\s*/g, ' ');
      for (const m of text.matchAll(/docs\/contract\.md[,:] ([^.;)]+)/g)) {
        cited++;
        const named = m[1] as string;
        if (!headings.some((h) => named.startsWith(h)))
          unknown.push(`${path.relative(ROOT, file)}: ${named}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(cited).toBeGreaterThan(100);
  });
});
