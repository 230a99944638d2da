/**
 * Server-Timing: where a request's time goes (signature check, user lookup, embedding, SQL).
 * Routes and middleware add named durations; the app writes them on the response, so the
 * benchmark (and any client) can see them without a profiler.
 */
export class Timings {
  private readonly entries: Array<[string, number]> = [];

  add(name: string, ms: number): void {
    this.entries.push([name, ms]);
  }

  async measure<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(name, performance.now() - started);
    }
  }

  header(): string {
    return this.entries.map(([n, ms]) => `${n};dur=${ms.toFixed(1)}`).join(", ");
  }
}
