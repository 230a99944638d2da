/**
 * Current facts win (docs/knowledge-updates.md), in the console in chromium against `wrangler
 * dev`: a replaced memory's page says what replaced it and shows the whole chain, oldest first,
 * with the current one marked; the list leaves replaced memories out until "Show replaced",
 * which marks them. The same for a grantee in a namespace shared with it.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { apiWallet, newGrantee, openPage, screenshot, useStackAndBrowser } from "../harness";
import { openAsGrantee, signInWithKey, text, unlabelled, waitForText } from "./pages";

const env = useStackAndBrowser();

type Wallet = ReturnType<typeof apiWallet>;

/** Three memories, each replacing the one before; none detected as an update by itself. */
async function storeChain(wallet: Wallet, namespace = "default") {
  const fields = { namespace, detect_updates: false };
  const oldest = await wallet.store("Alice lives in Berlin", {
    ...fields,
    occurred_at: "2021-03-01T00:00:00Z",
  });
  const middle = await wallet.store("Alice moved to Lisbon", {
    ...fields,
    occurred_at: "2023-06-01T00:00:00Z",
    supersedes: [oldest],
  });
  const newest = await wallet.store("Alice now lives in Oslo", {
    ...fields,
    occurred_at: "2025-09-01T00:00:00Z",
    supersedes: [middle],
  });
  return { oldest, middle, newest };
}

const rowIds = (page: import("playwright-core").Page) =>
  page
    .locator("[data-testid=memory-table] tbody tr")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-memory-id")));

describe("a memory a newer one replaced", () => {
  it("says what replaced it, shows the chain, and is listed only when asked for", async () => {
    const key = generatePrivateKey();
    const wallet = apiWallet(env.stack.baseUrl, privateKeyToAccount(key));
    const { oldest, middle, newest } = await storeChain(wallet);
    const other = await wallet.store("The office is closed on Mondays", { detect_updates: false });

    const { page, context, problems } = await openPage(env.browser, env.stack.baseUrl);
    await signInWithKey(page, key);

    // The list: current memories only, until "Show replaced", which marks the replaced ones.
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–2 of 2$/);
    expect((await rowIds(page)).sort()).toEqual([newest, other].sort());
    await page.getByLabel("Show replaced").check();
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–4 of 4$/);
    expect((await rowIds(page)).sort()).toEqual([oldest, middle, newest, other].sort());
    const badge = (id: string) => page.locator(`tr[data-memory-id="${id}"] .badge.replaced`);
    expect(await text(badge(oldest))).toBe("replaced");
    expect(await badge(middle).count()).toBe(1);
    expect(await badge(newest).count()).toBe(0);
    expect(await badge(other).count()).toBe(0);
    expect(await text(page.locator(`tr[data-memory-id="${oldest}"] a`))).toBe(
      "Alice lives in Berlin",
    );
    expect(await unlabelled(page)).toEqual([]);
    await screenshot(page, "20-replaced-memories");
    await page.getByLabel("Show replaced").uncheck();
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–2 of 2$/);

    // The oldest memory's page: replaced by the middle one; the chain, oldest first.
    await page.goto(`/#/memory/${oldest}`);
    const replacedBy = page.getByTestId("replaced-by");
    await waitForText(replacedBy, /^Replaced by Alice moved to Lisbon\./);
    expect(await replacedBy.locator("a").getAttribute("href")).toBe(`#/memory/${middle}`);
    expect(await page.getByTestId("replaces").count()).toBe(0);
    const chain = page.getByTestId("chain");
    await expect
      .poll(() => chain.locator("li").evaluateAll((li) => li.map((l) => l.dataset.memoryId)))
      .toEqual([oldest, middle, newest]);
    const entries = await chain.locator("li").allTextContents();
    // Each with when it occurred, in the browser's time zone.
    const day = String.raw`20\d\d-\d\d-\d\d \d\d:\d\d`;
    expect(entries[0]).toMatch(new RegExp(`^${day} Alice lives in Berlin \\(this memory\\)$`));
    expect(entries[1]).toMatch(new RegExp(`^${day} Alice moved to Lisbon$`));
    expect(entries[2]).toMatch(new RegExp(`^${day} current\\s*Alice now lives in Oslo$`));
    expect(
      await chain.locator("time").evaluateAll((t) => t.map((e) => e.getAttribute("datetime"))),
    ).toEqual([
      expect.stringMatching(/^2021-03-01T00:00:00(\.000)?Z$/),
      expect.stringMatching(/^2023-06-01T/),
      expect.stringMatching(/^2025-09-01T/),
    ]);
    expect(await chain.locator("li .badge.current").count()).toBe(1);
    expect(
      await chain.locator("a").evaluateAll((a) => a.map((l) => l.getAttribute("href"))),
    ).toEqual([oldest, middle, newest].map((id) => `#/memory/${id}`));
    expect(await chain.locator('a[aria-current="page"]').getAttribute("href")).toBe(
      `#/memory/${oldest}`,
    );
    const occurred = page.locator("dl.details div", { hasText: "Occurred" }).locator("time");
    expect(await occurred.getAttribute("datetime")).toMatch(/^2021-03-01T00:00:00(\.000)?Z$/);
    expect(await unlabelled(page)).toEqual([]);
    await screenshot(page, "21-replaced-memory");

    // Its replacement, through the notice's link: replaced in turn, and replacing the oldest.
    await replacedBy.locator("a").click();
    await page.waitForURL(`**/#/memory/${middle}`);
    await waitForText(page.getByTestId("replaced-by"), /^Replaced by Alice now lives in Oslo\./);
    await waitForText(page.getByTestId("replaces"), /^Replaces Alice lives in Berlin$/);
    await waitForText(page.getByTestId("chain"), /Berlin.*Lisbon.*Oslo/);

    // The current one: no "Replaced by", the same chain.
    await page.getByTestId("replaced-by").getByRole("link").click();
    await waitForText(page.getByTestId("replaces"), /^Replaces Alice moved to Lisbon$/);
    expect(await page.getByTestId("replaced-by").count()).toBe(0);
    await waitForText(page.getByTestId("chain"), /Berlin.*Lisbon.*current\s*Alice now lives/);

    // A memory with no replacements has neither the notice nor the chain.
    await page.goto(`/#/memory/${other}`);
    await page.getByTestId("memory-content").waitFor();
    expect(await page.getByTestId("replacement").count()).toBe(0);
    expect(await page.getByTestId("chain").count()).toBe(0);

    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows the same to a grantee of the namespace, with every call through the grant", async () => {
    const owner = apiWallet(env.stack.baseUrl);
    const { oldest, middle, newest } = await storeChain(owner, "people");
    const { key } = await newGrantee(owner, "people", "read");

    const ownerAddress = owner.account.address.toLowerCase();
    const { page, context, problems, refused } = await openAsGrantee(env, key, ownerAddress);
    await waitForText(page.getByTestId("shared-banner"), /Showing namespace people/);

    await waitForText(page.getByTestId("list-summary"), /^Showing 1–1 of 1$/);
    await page.getByLabel("Show replaced").check();
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–3 of 3$/);
    await page.locator(`tr[data-memory-id="${oldest}"] a`).click();
    await waitForText(page.getByTestId("replaced-by"), /^Replaced by Alice moved to Lisbon\./);
    await expect
      .poll(() =>
        page
          .getByTestId("chain")
          .locator("li")
          .evaluateAll((li) => li.map((l) => l.dataset.memoryId)),
      )
      .toEqual([oldest, middle, newest]);
    await page.getByTestId("chain").getByRole("link", { name: "Alice now lives in Oslo" }).click();
    await waitForText(page.getByTestId("replaces"), /^Replaces Alice moved to Lisbon$/);
    await waitForText(page.getByTestId("shared-banner"), /Showing namespace people/);

    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
