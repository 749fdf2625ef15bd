import { defineConfig } from 'drizzle-kit';

// D1 migrations: flat SQL files in migrations/, applied by `wrangler d1 migrations apply`.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations',
  migrations: { prefix: 'index' },
});
