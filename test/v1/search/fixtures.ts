/** What the keyword search tests share: both calls, and a scoped set of memories. */
import { expectStatus, type Json, type Wallet } from "../../helpers";

export async function search(w: Wallet, body: Record<string, unknown>): Promise<Json> {
  return expectStatus(await w.post("/v1/search", body), 200);
}

export async function searchGet(w: Wallet, query: string): Promise<Json> {
  return w.getOk(`/v1/memories/search?${query}`);
}

/** Four memories about telescopes with different scopes, and one unrelated in the same scope. */
export async function seedTelescopes(w: Wallet) {
  const [m1 = "", m2 = "", m3 = "", other = ""] = await w.storeEach([
    {
      content: "Bought a new telescope for stargazing in the mountains",
      namespace: "astro",
      memory_type: "project",
      tags: ["hobby", "sky"],
      session_id: "s1",
      agent_id: "ag1",
    },
    {
      content: "The telescope mirror needs careful cleaning before winter",
      memory_type: "observation",
      tags: ["maintenance"],
      session_id: "s2",
      agent_id: "ag2",
    },
    {
      content: "Telescope club meets on Fridays downtown near the library",
      namespace: "astro",
      memory_type: "general",
      tags: ["club", "sky"],
      session_id: "s1",
      agent_id: "ag2",
    },
    {
      content: "Cooking pasta requires salted boiling water",
      namespace: "astro",
      tags: ["sky"],
      session_id: "s1",
      agent_id: "ag2",
    },
  ]);
  return { m1, m2, m3, other };
}
