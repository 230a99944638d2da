/** A migrate larger than one INSERT's 65,535 bind parameters (12 a row: 5,462 rows). */
import { expect, it } from "vitest";
import { newWallet } from "../helpers";

it("migrate with 6,100 sections stores them all", { timeout: 180_000 }, async () => {
  const w = newWallet();
  const sections = 6_100;
  const perFile = 1_220;
  const files = Array.from({ length: sections / perFile }, (_, f) => ({
    filename: `notes-${f}.md`,
    content: Array.from(
      { length: perFile },
      (_, i) => `## Note ${f}-${i}\nThe number ${f * perFile + i} is written down here.`,
    ).join("\n\n"),
  }));
  const res = await w.post("/v1/migrate", { files });
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
  expect(res.body.files_processed).toBe(files.length);
  expect(res.body.memories_created).toBe(sections);
  expect(res.body.memories_deduplicated).toBe(0);
  expect(await w.memoryCount()).toBe(sections);

  // Importing the same files again finds every section already stored.
  const again = await w.post("/v1/migrate", { files });
  expect(again.status).toBe(201);
  expect(again.body.memories_created).toBe(0);
  expect(again.body.memories_deduplicated).toBe(sections);
  // Every section is reported by the memory that holds it, the same one both times.
  expect(res.body.memory_ids).toHaveLength(sections);
  expect(again.body.memory_ids).toEqual(res.body.memory_ids);
});
