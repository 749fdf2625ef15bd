/**
 * The migrations build the schema the code declares (scripts/schema-drift.ts, `npm run db:drift`):
 * D1's, the ClientLedger's and the HealthAnalyzer's, applied in order to a fresh SQLite and compared
 * fact by fact with drizzle's schema. And the check sees a migration that is missing.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { DATABASES, drift } from '../../scripts/schema-drift';

const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-drift-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('schema drift', () => {
  it.each(DATABASES.map((d) => [d.name, d] as const))(
    '%s: the migrations build the declared schema',
    async (_, database) => {
      const { facts, problems } = await drift(database);
      expect(problems).toEqual([]);
      expect(facts).toBeGreaterThan(15);
    },
  );

  it('reports a migration that is missing', async () => {
    const ledger = DATABASES.find((d) => d.name === 'ClientLedger')!;
    const dir = path.join(work, 'ledger');
    cpSync(path.join(ROOT, ledger.migrations), dir, {
      recursive: true,
      filter: (source) => !source.endsWith('0012_lean_deliveries.sql'),
    });
    const { problems } = await drift({ ...ledger, migrations: dir });
    expect(problems).toContain(
      'ClientLedger webhook_deliveries primary key: migrations event_id, schema seq',
    );
    expect(
      problems.some((p) =>
        p.startsWith('ClientLedger webhook_deliveries index webhook_deliveries_aggregate_idx:'),
      ),
    ).toBe(true);
  });
});
