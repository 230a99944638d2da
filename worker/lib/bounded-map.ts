/**
 * A Map that forgets its oldest entries past a size: for per-isolate caches of immutable
 * facts (a wallet's user id, a signature already verified). Workers isolates are reused
 * across requests, so these save work without sharing any I/O object between requests.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    if (this.map.has(key)) this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }
}
