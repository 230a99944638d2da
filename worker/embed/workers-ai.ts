import { z } from "zod";
import { ApiError } from "../errors";
import { countTokens } from "../lib/tokens";
import { EMBEDDING_DIMENSIONS, type Embedder, type Embedding } from "./embedder";
import { normalise } from "./vector";

export const WORKERS_AI_EMBEDDING_MODEL = "@cf/baai/bge-small-en-v1.5";

/** Workers AI accepts up to 100 texts per embedding call. */
const BATCH_SIZE = 100;

/**
 * The part of the `Ai` binding this embedder uses; the real binding satisfies it, and tests
 * pass a fake.
 */
export interface AiRunner {
  run(
    model: typeof WORKERS_AI_EMBEDDING_MODEL,
    input: { text: string[]; pooling: "cls" },
  ): Promise<unknown>;
}

const outputSchema = z.object({
  data: z.array(z.array(z.number()).length(EMBEDDING_DIMENSIONS)),
  // Workers AI echoes the pooling it used; absent in older answers.
  pooling: z.string().optional(),
});

/**
 * bge-small-en-v1.5 on Workers AI: 384-dimensional, so it needs no truncation. Asked for CLS
 * pooling, the model's own recipe, which the local process reproduces (local/embedder):
 * Workers AI's default is mean pooling, whose vectors are not comparable with CLS ones.
 */
export class WorkersAiEmbedder implements Embedder {
  readonly model = WORKERS_AI_EMBEDDING_MODEL;
  readonly semantic = true;

  constructor(private readonly ai: AiRunner) {}

  async embed(texts: string[]): Promise<Embedding> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + BATCH_SIZE))));
    }
    // Workers AI reports no usage for embeddings, so the count is our approximation.
    const tokens = texts.reduce((sum, text) => sum + countTokens(text), 0);
    return { vectors, tokens };
  }

  private async embedBatch(batch: string[]): Promise<number[][]> {
    let output: unknown;
    try {
      output = await this.ai.run(WORKERS_AI_EMBEDDING_MODEL, { text: batch, pooling: "cls" });
    } catch (err) {
      throw new ApiError("BAD_GATEWAY", `Embedding provider failed: ${describe(err)}`);
    }
    const parsed = outputSchema.safeParse(output);
    if (parsed.success && parsed.data.pooling !== undefined && parsed.data.pooling !== "cls") {
      throw new ApiError(
        "BAD_GATEWAY",
        `Embedding provider failed: Workers AI used ${parsed.data.pooling} pooling, not cls`,
      );
    }
    if (!parsed.success || parsed.data.data.length !== batch.length) {
      throw new ApiError(
        "BAD_GATEWAY",
        `Embedding provider failed: Workers AI returned an unexpected shape (expected ${batch.length} vectors of ${EMBEDDING_DIMENSIONS})`,
      );
    }
    return parsed.data.data.map((v) => {
      // bge output is normalised already; renormalising guards the unit-vector contract.
      const unit = normalise(v);
      if (!unit) throw new ApiError("BAD_GATEWAY", "Embedding provider failed: zero vector");
      return unit;
    });
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
