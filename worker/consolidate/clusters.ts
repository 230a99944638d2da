/**
 * Clustering for consolidation, pure: groups whose members are ALL pairwise at least
 * `minSimilarity` apart (cliques, not chains: A≈B and B≈C does not put A with C unless A≈C).
 * Greedy and deterministic: memories are taken in the given order (the caller sorts them by
 * importance, then recency) and each unassigned memory seeds a cluster that takes every later
 * unassigned memory similar to all its members. Only clusters of two or more are returned.
 * `compatible` can veto a pair whatever its similarity (consolidate.ts: texts that differ in
 * a number, date, name or negation are distinct facts, memories/dedup-rule.ts).
 */
export interface Clusterable {
  id: string;
  vector: Float32Array;
}

export interface Cluster {
  ids: string[];
  /** Average pairwise cosine similarity of the members. */
  similarity: number;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

export function findClusters<T extends Clusterable>(
  items: T[],
  minSimilarity: number,
  compatible: (a: T, b: T) => boolean = () => true,
): Cluster[] {
  const assigned = new Uint8Array(items.length);
  const clusters: Cluster[] = [];
  for (let seed = 0; seed < items.length; seed++) {
    if (assigned[seed]) continue;
    const seedItem = items[seed];
    if (!seedItem) continue;
    const members = [seed];
    for (let j = seed + 1; j < items.length; j++) {
      const candidate = items[j];
      if (assigned[j] || !candidate) continue;
      if (
        members.every((m) => {
          const member = items[m] as T;
          return (
            dot(member.vector, candidate.vector) >= minSimilarity && compatible(member, candidate)
          );
        })
      ) {
        members.push(j);
      }
    }
    if (members.length < 2) continue;
    let sum = 0;
    let pairs = 0;
    for (let a = 0; a < members.length; a++) {
      for (let b = a + 1; b < members.length; b++) {
        sum += dot(
          (items[members[a] as number] as Clusterable).vector,
          (items[members[b] as number] as Clusterable).vector,
        );
        pairs += 1;
      }
    }
    for (const m of members) assigned[m] = 1;
    clusters.push({
      ids: members.map((m) => (items[m] as Clusterable).id),
      similarity: Math.round((sum / pairs) * 1e6) / 1e6,
    });
  }
  return clusters;
}
