import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./schema/tables.ts",
  out: "./schema/migrations",
});
