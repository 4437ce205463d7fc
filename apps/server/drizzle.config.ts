import { defineConfig } from 'drizzle-kit';

// One schema and one set of migrations for PGlite and PostgreSQL (decision 006).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
});
