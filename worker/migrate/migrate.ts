/**
 * POST /v1/migrate: markdown files → memories (rules 1-4 in sections.ts). Rule 5: each
 * section's content is SHA-256 hashed and a section whose hash a live memory of the wallet
 * and namespace already has — or that an earlier section of the same request has — is
 * counted as deduplicated and not stored, so importing the same files again creates nothing.
 * A file that cannot be imported is reported in `errors`; the others still import.
 * `dry_run: true` (not in the spec; the public MCP server's preview) counts the same way and
 * stores nothing: `memories_created` is what would be created.
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { memories } from "../../schema/tables";
import type { DomainContext } from "../context";
import { sha256Hex } from "../lib/hash";
import * as f from "../memories/fields";
import { lockNamespaces } from "../memories/namespace-version";
import { liveMemory } from "../memories/rows";
import { memoriesFromMarkdown } from "./sections";

export const MAX_FILES = 50;
/**
 * Rows per INSERT: each row binds 12 parameters and Postgres takes at most 65,535 a statement,
 * so one INSERT of every section would fail from 5,462 sections on.
 */
const INSERT_CHUNK = 1000;
/** Per file; the request body limit (8 MiB) bounds the total. */
export const MAX_FILE_CHARS = 1_000_000;

export const migrateInput = z.object({
  // Files are checked one by one so that one bad file fails alone (reported in `errors`).
  files: z
    .array(z.unknown())
    .min(1, "at least 1 file")
    .max(MAX_FILES, `at most ${MAX_FILES} files`),
  namespace: f.namespace.optional(),
  session_id: f.scope.optional(),
  agent_id: f.scope.optional(),
  /** Count what would be imported, store nothing (the public MCP server's preview). */
  dry_run: z.boolean().optional(),
});

export const fileInput = z.object({
  filename: z.string().min(1, "must not be empty").max(255, "must be at most 255 characters"),
  content: z.string().max(MAX_FILE_CHARS, `must be at most ${MAX_FILE_CHARS} characters`),
});

interface Pending {
  content: string;
  hash: string;
  importance: number;
  memoryType: string;
  tags: string[];
}

export async function migrateFiles(ctx: DomainContext, input: z.output<typeof migrateInput>) {
  const namespace = input.namespace ?? "default";
  const errors: Array<{ filename: string; error: string }> = [];
  const pending: Pending[] = [];
  const seen = new Set<string>();
  let processed = 0;
  let deduplicated = 0;

  for (const [i, raw] of input.files.entries()) {
    const parsed = fileInput.safeParse(raw);
    if (!parsed.success) {
      const name =
        typeof raw === "object" &&
        raw !== null &&
        "filename" in raw &&
        typeof raw.filename === "string"
          ? raw.filename
          : `files[${i}]`;
      const issue = parsed.error.issues[0];
      errors.push({
        filename: name,
        error: issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid file",
      });
      continue;
    }
    const { filename, content } = parsed.data;
    const sections = memoriesFromMarkdown(filename, content);
    if (sections.length === 0) {
      errors.push({ filename, error: "no section of 10 characters or more to import" });
      continue;
    }
    processed += 1;
    for (const s of sections) {
      const hash = await sha256Hex(s.content);
      if (seen.has(hash)) {
        deduplicated += 1;
        continue;
      }
      seen.add(hash);
      pending.push({ ...s, hash });
    }
  }

  // Drop what is already stored before paying for embeddings, then check again under the
  // namespace lock (a concurrent import may have stored the same sections meanwhile).
  // `memoryOf` maps each distinct section (by hash) to the memory that holds it.
  const memoryOf = await storedIds(ctx, ctx.db, namespace, pending);
  const fresh = pending.filter((p) => !memoryOf.has(p.hash));
  deduplicated += pending.length - fresh.length;
  const dryRun = input.dry_run === true;
  // A dry run reports the sections it would store as created, and embeds nothing.
  let created = dryRun ? fresh.length : 0;
  let tokensUsed = 0;
  if (fresh.length > 0 && !dryRun) {
    const { vectors, tokens } = await ctx.embedder.embed(fresh.map((p) => p.content));
    tokensUsed = tokens;
    created = await ctx.db.transaction(async (tx) => {
      // The namespace's version row, locked until commit: stores wait, and a store that
      // probed before this import fails its claim and looks again (namespace-version.ts).
      await lockNamespaces(tx, ctx.userId, [namespace]);
      const meanwhile = await storedIds(ctx, tx, namespace, fresh);
      for (const [hash, id] of meanwhile) memoryOf.set(hash, id);
      const rows = fresh.flatMap(({ hash, ...section }, i) => {
        if (meanwhile.has(hash)) return [];
        const id = crypto.randomUUID();
        memoryOf.set(hash, id);
        return [
          {
            id,
            userId: ctx.userId,
            namespace,
            // content, tags, importance and memoryType, as the section rules made them
            ...section,
            sessionId: input.session_id ?? null,
            agentId: input.agent_id ?? null,
            embedding: vectors[i],
            embeddingModel: ctx.embedder.model,
            contentHash: hash,
            createdBy: ctx.wallet.toLowerCase(),
          },
        ];
      });
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        await tx.insert(memories).values(rows.slice(start, start + INSERT_CHUNK));
      }
      return rows.length;
    });
    deduplicated += fresh.length - created;
  }

  return {
    files_processed: processed,
    memories_created: created,
    memories_deduplicated: deduplicated,
    duplicates_skipped: deduplicated,
    // Client extras (the public SDKs read them): the memory of each distinct section,
    // created or already stored (in a dry run, already stored only), in file and section
    // order; and the embedding tokens.
    memory_ids: pending.flatMap((p) => memoryOf.get(p.hash) ?? []),
    tokens_used: tokensUsed,
    dry_run: dryRun,
    ...(errors.length > 0 ? { errors } : {}),
  };
}

/** Hash → id of the live memories of the namespace that hold one of the items' contents. */
async function storedIds(
  ctx: DomainContext,
  db: Pick<DomainContext["db"], "select">,
  namespace: string,
  items: Pending[],
): Promise<Map<string, string>> {
  if (items.length === 0) return new Map();
  const rows = await db
    .select({ hash: memories.contentHash, id: memories.id })
    .from(memories)
    .where(
      and(
        liveMemory(ctx),
        eq(memories.namespace, namespace),
        // One array parameter, where inArray would bind one per hash (65,535 at most).
        sql`${memories.contentHash} = ANY(${sql.param(items.map((p) => p.hash))}::text[])`,
      ),
    );
  return new Map(rows.flatMap((r) => (r.hash ? [[r.hash, r.id] as const] : [])));
}
