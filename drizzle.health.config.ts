import { defineConfig } from 'drizzle-kit';

// Durable Object (HealthAnalyzer) schema migrations, bundled into the Worker and applied by the
// object itself on start-up.
export default defineConfig({
  dialect: 'sqlite',
  driver: 'durable-sqlite',
  schema: './durable-objects/health/schema.ts',
  out: './durable-objects/health/migrations',
});
