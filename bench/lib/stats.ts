/** Percentiles, latency summaries and Server-Timing means. */

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

export const round1 = (x: number) => Math.round(x * 10) / 10;

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

export function summary(ms: number[]): LatencySummary {
  const s = [...ms].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: round1(percentile(s, 50)),
    p95: round1(percentile(s, 95)),
    p99: round1(percentile(s, 99)),
    mean: round1(s.reduce((a, b) => a + b, 0) / s.length),
  };
}

/** Mean of each Server-Timing metric over a run (where the time goes inside the Worker). */
export function timingMeans(headers: Array<string | null>): Record<string, number> {
  const sums = new Map<string, { total: number; n: number }>();
  for (const h of headers) {
    for (const part of (h ?? "").split(",")) {
      const m = part.trim().match(/^([\w-]+);dur=([\d.]+)/);
      if (!m?.[1] || !m[2]) continue;
      const e = sums.get(m[1]) ?? { total: 0, n: 0 };
      e.total += Number(m[2]);
      e.n += 1;
      sums.set(m[1], e);
    }
  }
  return Object.fromEntries([...sums].map(([k, v]) => [k, round1(v.total / v.n)]));
}
