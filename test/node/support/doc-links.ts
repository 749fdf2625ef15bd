/**
 * Relative links of Markdown documents: their targets, the anchors GitHub gives headings, and which
 * links do not resolve (test/node/doc-links.test.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../runtime/local-runtime.mjs';

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text (headings outside fenced blocks; repeats get -1, -2, …). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a Markdown text, outside fenced blocks and inline code. */
export function links(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((raw, i) => {
    if (raw.startsWith('```')) fenced = !fenced;
    if (fenced) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      out.push({ target, line: i + 1 });
    }
  });
  return out;
}

/** Broken relative links of `file` (absolute path), each as "file:line target (why)". */
export function brokenLinks(file: string, read: (file: string) => string | undefined): string[] {
  const text = read(file);
  if (text === undefined) return [`${file}: missing`];
  const problems: string[] = [];
  for (const { target, line } of links(text)) {
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURI(pathPart));
    const where = `${path.relative(ROOT, file)}:${line} ${target}`;
    const content = read(resolved);
    if (content === undefined) {
      if (!existsSync(resolved)) problems.push(`${where} (no such file)`);
      else if (anchor) problems.push(`${where} (anchor into a directory)`);
      continue;
    }
    if (anchor && !resolved.endsWith('.md')) problems.push(`${where} (anchor into a non-Markdown file)`);
    else if (anchor && !anchors(content).has(anchor)) problems.push(`${where} (no heading #${anchor})`);
  }
  return problems;
}
