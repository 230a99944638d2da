/**
 * Coalesces embedding requests: while the model runs one batch, requests that arrive wait,
 * and the next run takes all of them together (up to maxTexts). A model run costs little
 * more for 30 texts than for one, so concurrent stores and recalls share runs instead of
 * queueing one by one. No Node imports, so the tests exercise it inside workerd.
 */
export type EmbedFn<V> = (texts: string[]) => Promise<V[]>;

interface Pending<V> {
  texts: string[];
  resolve: (vectors: V[]) => void;
  reject: (err: unknown) => void;
}

export interface BatcherStats {
  requests: number;
  runs: number;
  texts: number;
}

export class Batcher<V> {
  private queue: Array<Pending<V>> = [];
  private running = false;
  readonly stats: BatcherStats = { requests: 0, runs: 0, texts: 0 };

  constructor(
    private readonly run: EmbedFn<V>,
    private readonly maxTexts = 256,
  ) {}

  embed(texts: string[]): Promise<V[]> {
    this.stats.requests += 1;
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise<V[]>((resolve, reject) => {
      this.queue.push({ texts, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        // Whole requests only; the first one always goes, however large.
        const taken: Array<Pending<V>> = [];
        let count = 0;
        while (this.queue.length > 0) {
          const next = this.queue[0];
          if (!next || (taken.length > 0 && count + next.texts.length > this.maxTexts)) break;
          taken.push(next);
          count += next.texts.length;
          this.queue.shift();
        }
        await this.runBatch(taken);
      }
    } finally {
      this.running = false;
    }
  }

  private async runBatch(taken: Array<Pending<V>>): Promise<void> {
    const texts = taken.flatMap((p) => p.texts);
    this.stats.runs += 1;
    this.stats.texts += texts.length;
    try {
      const vectors = await this.run(texts);
      if (vectors.length !== texts.length) {
        throw new Error(`model returned ${vectors.length} vectors for ${texts.length} texts`);
      }
      let offset = 0;
      for (const p of taken) {
        p.resolve(vectors.slice(offset, offset + p.texts.length));
        offset += p.texts.length;
      }
    } catch (err) {
      for (const p of taken) p.reject(err);
    }
  }
}
