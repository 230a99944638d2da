/**
 * `npm run db:migrate`: applies schema/migrations to DATABASE_URL (Neon or any Postgres with
 * pgvector). `npm run dev` and the tests apply them to the embedded database by themselves.
 */
import { startLocalDatabase } from "../local/db/start";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error(
    "DATABASE_URL is not set. Example: DATABASE_URL=postgres://user:pass@host/db npm run db:migrate",
  );
  process.exit(1);
}
const db = await startLocalDatabase({
  databaseUrl: url,
  dataDir: "memory://",
  log: (l) => console.log(`[migrate] ${l}`),
});
await db.stop();
console.log("[migrate] done");
