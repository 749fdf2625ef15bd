/**
 * docs/architecture.md's worked example of adding a ledger operation stays true: each ```ts block
 * of "The ledger's operations" that starts with `// <path>` is in that file verbatim, and the
 * declaration it shows is applied by ClientLedger's run() (its method calls `this.run(ops.…)`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';

const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
const section = doc.slice(doc.indexOf("## The ledger's operations"), doc.indexOf('## Staging entry point'));
const blocks = [...section.matchAll(/```ts\n\/\/ (\S+)\n([\s\S]*?)```/g)].map((m) => ({
  file: m[1] as string,
  code: m[2] as string,
}));

describe("docs/architecture.md: the ledger's operations", () => {
  it('shows the declaration, the method and the handler', () => {
    expect(blocks.map((b) => b.file)).toEqual([
      'durable-objects/ledger/operations.ts',
      'durable-objects/client-ledger.ts',
      'src/api/cash-in/cancel-cash-in.ts',
    ]);
  });

  it.each(blocks.map((b) => [b.file, b.code] as const))('%s holds its block verbatim', (file, code) => {
    expect(readFileSync(path.join(ROOT, file), 'utf8')).toContain(code);
  });

  it('every write method of ClientLedger goes through run(), and every declared operation is run', () => {
    const ledger = readFileSync(path.join(ROOT, 'durable-objects', 'client-ledger.ts'), 'utf8');
    const declared = readFileSync(path.join(ROOT, 'durable-objects', 'ledger', 'operations.ts'), 'utf8');
    const names = [...declared.matchAll(/^export const (\w+Op) = operation</gm)].map((m) => m[1] as string);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(ledger, name).toContain(`this.run(ops.${name},`);
    // The one place that wraps the alarm around an operation is run() itself.
    expect(ledger.match(/this\.withAlarm\(/g)).toHaveLength(1);
  });
});
