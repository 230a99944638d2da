/**
 * SQL run as background work: after the response, with no caller waiting on it (today the
 * HNSW indexer, memories/ann.ts). A leading comment says so. PostgreSQL ignores it; the
 * embedded database's front (local/db/lock.ts), which runs one statement at a time
 * for every client, queues such statements in a lane of their own, so that a caller's request
 * waits behind at most one of them instead of a queue of them.
 */
import { type SQL, sql } from "drizzle-orm";

export const BACKGROUND_MARK = "/* memory-service: background */";

export const background = (query: SQL): SQL => sql`${sql.raw(BACKGROUND_MARK)} ${query}`;

/** Whether a statement's text is marked as background work. */
export const isBackground = (text: string | undefined): boolean =>
  text?.trimStart().startsWith(BACKGROUND_MARK) ?? false;
