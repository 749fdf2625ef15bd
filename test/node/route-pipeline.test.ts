/**
 * docs/architecture.md, The route pipeline: every handler of src/api receives its caller and its body
 * from the route's declaration; only a bank's callback (`selfAuthenticatingRoute`) authenticates and
 * reads its body itself. A handler that calls `authenticate` or reads the body on its own would run
 * a step twice or skip the declared one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sources(rel);
    return rel.endsWith('.ts') ? [rel] : [];
  });
}

const OWN_STEPS = /\bauthenticate\(|\breadJsonObject\(|\breadOptionalJsonObject\(/;

describe('the route pipeline', () => {
  it('no handler but a bank callback authenticates or reads its body by itself', () => {
    const own = sources('src/api').filter((file) =>
      OWN_STEPS.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    const callbacks = own.filter((file) =>
      readFileSync(path.join(ROOT, file), 'utf8').includes('selfAuthenticatingRoute('),
    );
    expect(own).toEqual(callbacks);
    // The bank's callbacks live with the partners' resource.
    expect(callbacks.length).toBeGreaterThan(0);
    for (const file of callbacks) expect(file).toMatch(/^src\/api\/partners\//);
  });
});
