/** What the stats and namespaces tests share. */
import type { Wallet } from "../helpers";

/** The memory's created_at as the API reports it. */
export const createdAt = async (w: Wallet, id: string): Promise<string> =>
  (await w.getMemory(id)).created_at;

/** GET /v1/namespaces of a wallet whose live memories are `id` alone, in `name`. */
export const onlyNamespace = async (w: Wallet, name: string, id: string) => ({
  namespaces: [{ name, count: 1, last_memory_at: await createdAt(w, id) }],
  total: 1,
});
