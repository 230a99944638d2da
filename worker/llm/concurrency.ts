/**
 * `fn` over `items` with at most `limit` calls in flight, results in input order. Language-
 * model calls are slow and remote: a few at once cut the wait without bursting a provider's
 * rate limit. The first failure rejects the whole (calls already started still finish).
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}
