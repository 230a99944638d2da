/**
 * Turns text into 384-dimensional unit vectors. Three implementations: the built-in lexical
 * embedder (offline default), Workers AI, and any OpenAI-compatible /embeddings endpoint.
 */
export interface Embedding {
  vectors: number[][];
  /** Tokens the embedding consumed: reported by the provider, or counted where it reports none. */
  tokens: number;
}

export interface Embedder {
  /** Stored with each memory so vectors of different models are never silently mixed. */
  readonly model: string;
  /**
   * A model of meaning, whose cosines sit high for any two texts (bge: unrelated ones at
   * 0.3-0.5), rather than the lexical embedder, whose unrelated texts score about 0. Recall
   * rescales a semantic model's similarities before weighing them (recall/scoring.ts).
   */
  readonly semantic: boolean;
  embed(texts: string[]): Promise<Embedding>;
}

export const EMBEDDING_DIMENSIONS = 384;
