/**
 * Schedules embedding requests onto model runs of at most maxTexts texts. While the model runs,
 * requests that arrive wait; the next run takes the smallest first, and a large request
 * (a batch store's 100 texts) is split across runs. Concurrent stores and recalls share runs
 * instead of queueing one by one, and a recall's one query waits for the run in progress and
 * at most one more, never for a whole batch: with whole requests in arrival order, one
 * wallet's batch stores held another wallet's recall embeddings up for 2-4 s on 2 cores.
 */
export type EmbedFn<V> = (texts: string[]) => Promise<V[]>;

interface Pending<V> {
  texts: string[];
  /** Vectors so far, by text index; `done` of them. */
  vectors: V[];
  /** Texts handed to runs so far (the next run starts at this index). */
  taken: number;
  done: number;
  resolve: (vectors: V[]) => void;
  reject: (err: unknown) => void;
}

/** A request's share of one run: its texts [from, to). */
interface Slice<V> {
  request: Pending<V>;
  from: number;
  to: number;
}

export interface BatcherStats {
  requests: number;
  runs: number;
  texts: number;
}

/**
 * Texts a run: a query waits for at most about two runs. Measured on 2 cores with 100-text
 * requests: LoCoMo turns (138 chars on average) 65 a second in runs of 8, 71 of 4, 46-48 of
 * 32 (padding to the longest costs more than batching saves); short questions 195 of 8, 180
 * of 4, 185 of 32.
 */
const RUN_TEXTS = 8;

export class Batcher<V> {
  private queue: Array<Pending<V>> = [];
  private running = false;
  readonly stats: BatcherStats = { requests: 0, runs: 0, texts: 0 };

  constructor(
    private readonly run: EmbedFn<V>,
    private readonly maxTexts = RUN_TEXTS,
  ) {}

  embed(texts: string[]): Promise<V[]> {
    this.stats.requests += 1;
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise<V[]>((resolve, reject) => {
      this.queue.push({ texts, vectors: [], taken: 0, done: 0, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) await this.runSlices(this.nextRun());
    } finally {
      this.running = false;
    }
  }

  /** Up to maxTexts texts not yet taken, from the requests with the fewest left first. */
  private nextRun(): Array<Slice<V>> {
    const waiting = this.queue
      .filter((p) => p.taken < p.texts.length)
      .sort((a, b) => a.texts.length - a.taken - (b.texts.length - b.taken));
    const slices: Array<Slice<V>> = [];
    let room = this.maxTexts;
    for (const request of waiting) {
      if (room === 0) break;
      const from = request.taken;
      const to = Math.min(request.texts.length, from + room);
      request.taken = to;
      room -= to - from;
      slices.push({ request, from, to });
    }
    return slices;
  }

  private async runSlices(slices: Array<Slice<V>>): Promise<void> {
    const texts = slices.flatMap((s) => s.request.texts.slice(s.from, s.to));
    this.stats.runs += 1;
    this.stats.texts += texts.length;
    try {
      const vectors = await this.run(texts);
      if (vectors.length !== texts.length) {
        throw new Error(`model returned ${vectors.length} vectors for ${texts.length} texts`);
      }
      let offset = 0;
      for (const { request, from, to } of slices) {
        for (let i = from; i < to; i++) request.vectors[i] = vectors[offset++] as V;
        request.done += to - from;
        if (request.done === request.texts.length) this.settle(request, null);
      }
    } catch (err) {
      // The requests with texts in this run fail, whole; the others go on.
      for (const { request } of slices) this.settle(request, err ?? new Error("model failed"));
    }
  }

  private settle(request: Pending<V>, err: unknown): void {
    const at = this.queue.indexOf(request);
    if (at < 0) return;
    this.queue.splice(at, 1);
    if (err === null) request.resolve(request.vectors);
    else request.reject(err);
  }
}
