/**
 * A grantee in the console, in chromium against `wrangler dev`: it finds the namespace another
 * wallet shared with it, switches to it, sees that namespace's memories and who stored each,
 * and none of the owner's other namespaces; the screens and actions only an owner may use are
 * not offered (no call answers 403); it goes back to its own memories.
 */
import { readFileSync } from "node:fs";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { apiWallet, newGrantee, openPage, screenshot, useStackAndBrowser } from "../harness";
import {
  openAsGrantee,
  receivedGrant,
  signInWithKey,
  text,
  unlabelled,
  waitForText,
} from "./pages";

const env = useStackAndBrowser();

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

describe("a namespace shared with the signed-in wallet", () => {
  it("is listed, opened on every screen with its owner named, and left again", async () => {
    const owner = apiWallet(env.stack.baseUrl);
    const ownerAddress = owner.account.address.toLowerCase();
    const key = generatePrivateKey();
    const agent = apiWallet(env.stack.baseUrl, privateKeyToAccount(key));
    const agentAddress = agent.account.address.toLowerCase();
    const falcon = await owner.store("Project Falcon ships in June", { namespace: "team" });
    const qa = await owner.store("Falcon's QA starts in May", { namespace: "team" });
    const budget = await owner.store("Falcon's budget is two million", { namespace: "board" });
    await owner.call("POST", `/v1/memories/${falcon}/relations`, {
      target_id: qa,
      relation_type: "related_to",
    });
    await owner.call("POST", `/v1/memories/${falcon}/relations`, {
      target_id: budget,
      relation_type: "supports",
    });
    await owner.grant(agentAddress, "team", "write");
    // One memory of the team namespace is the agent's, written through its grant.
    const theirs = await agent.storeFor(
      ownerAddress,
      "Falcon's staging server was rebooted on Monday",
      { namespace: "team" },
    );
    await agent.store("The agent's own note about Falcon");

    const { page, context, problems } = await openPage(env.browser, env.stack.baseUrl);
    const refused: string[] = [];
    page.on("response", (res) => {
      if (res.status() === 403) refused.push(res.url());
    });
    await signInWithKey(page, key);
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–1 of 1$/);

    // The received grant, opened from the sharing screen.
    await page.getByRole("link", { name: "Sharing" }).click();
    const received = receivedGrant(page, ownerAddress);
    await received.waitFor();
    const cells = await received.locator("td").allTextContents();
    expect(cells.slice(0, 3)).toEqual([short(ownerAddress), "team", "write"]);
    await received.getByRole("button", { name: /^Open/ }).click();
    await page.waitForURL("**/#/memories");
    const banner = page.getByTestId("shared-banner");
    await waitForText(banner, /Showing namespace team, shared with you by/);
    expect(await banner.locator("code").getAttribute("title")).toBe(ownerAddress);
    expect(await text(banner)).toContain("(read and write)");

    // The list: the team namespace's three memories, with who stored each; not the board's,
    // not the agent's own.
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–3 of 3$/);
    const namespace = page.getByLabel("Namespace", { exact: true });
    expect(await namespace.inputValue()).toBe("team");
    expect(await namespace.getAttribute("readonly")).not.toBeNull();
    const storedBy = (id: string) =>
      page.locator(`tr[data-memory-id="${id}"] td`).last().locator("code").getAttribute("title");
    expect(await storedBy(falcon)).toBe(ownerAddress);
    expect(await storedBy(theirs)).toBe(agentAddress);
    expect(await page.locator(`tr[data-memory-id="${budget}"]`).count()).toBe(0);
    expect(await unlabelled(page)).toEqual([]);
    await screenshot(page, "10-shared-memories");

    // A memory: who stored it; no pin and no relations to edit; an edit through the write
    // grant, whose history entry names the agent.
    await page.locator(`tr[data-memory-id="${falcon}"] a`).click();
    await page.getByTestId("memory-content").waitFor();
    const details = page.locator("dl.details");
    expect(await details.locator("code[title]").getAttribute("title")).toBe(ownerAddress);
    expect(await page.getByRole("button", { name: "Pin", exact: true }).count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Relations" }).count()).toBe(0);
    await page.getByLabel("Content").fill("Project Falcon ships in July");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").getByText("Saved. A history entry was written.").waitFor();
    const history = page.getByTestId("history");
    await waitForText(history, /July/);
    expect(await text(history)).toContain(`by ${short(agentAddress)}`);
    expect(await history.locator("code[title]").getAttribute("title")).toBe(agentAddress);
    expect(await unlabelled(page)).toEqual([]);
    await screenshot(page, "11-shared-memory");

    // Its graph reaches the team memory, not the board's.
    await page.getByRole("link", { name: "Show relation graph" }).click();
    await waitForText(page.getByTestId("graph-nodes"), /QA starts in May/);
    expect(await text(page.getByTestId("graph-nodes"))).not.toContain("budget");
    expect(await page.getByLabel(/merged away by consolidation/).count()).toBe(0);

    // Search and recall stay in the namespace.
    await page.getByRole("link", { name: "Recall & search" }).click();
    expect(await page.getByLabel("Namespace", { exact: true }).inputValue()).toBe("team");
    await page.getByLabel("Full-text search").check();
    await page.getByLabel("Query").fill("Falcon");
    await page.getByRole("button", { name: "Full-text search" }).click();
    await page.getByRole("heading", { name: "3 matches" }).waitFor();
    const hits = await text(page.getByTestId("search-results"));
    expect(hits).not.toContain("budget");
    expect(hits).not.toContain("own note");
    await page.getByLabel("Recall", { exact: true }).check();
    await page.getByLabel("Query").fill("when does Falcon ship");
    await page.getByRole("button", { name: "Recall", exact: true }).click();
    const recalled = page.locator("[data-testid=recall-table] tbody tr");
    await recalled.first().waitFor();
    expect(await recalled.first().getAttribute("data-memory-id")).toBe(falcon);
    expect(await recalled.count()).toBe(3);

    // Insights: the namespace's suggestions and the agent's own free tier; the owner's
    // statistics, namespaces and jobs are not offered.
    await page.getByRole("link", { name: "Insights" }).click();
    await page.getByRole("heading", { name: /^fresh/ }).waitFor();
    await waitForText(page.getByTestId("free-tier"), /free paid calls left/);
    await page.getByTestId("owner-only").waitFor();
    for (const heading of ["Statistics", "Namespaces", "Background jobs"]) {
      expect(await page.getByRole("heading", { name: heading }).count(), heading).toBe(0);
    }
    expect(await text(page.locator("main"))).not.toContain("budget");

    // Export: the namespace only; no import.
    await page.getByRole("link", { name: "Import & export" }).click();
    expect(await page.getByLabel("Files").count()).toBe(0);
    await page.getByRole("button", { name: "Export", exact: true }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("export-download").click(),
    ]);
    const exported = JSON.parse(readFileSync(String(await download.path()), "utf8")) as {
      memories: Array<{ namespace: string; created_by: string }>;
    };
    expect(exported.memories.map((m) => m.namespace)).toEqual(["team", "team", "team"]);
    expect(exported.memories.map((m) => m.created_by).sort()).toEqual(
      [ownerAddress, ownerAddress, agentAddress].sort(),
    );

    // Back to the agent's own memories, from the banner.
    await page.getByRole("button", { name: "Back to my memories" }).click();
    await page.waitForURL("**/#/memories");
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–1 of 1$/);
    expect(await page.getByTestId("shared-banner").count()).toBe(0);
    expect(await page.getByLabel("Namespace", { exact: true }).getAttribute("readonly")).toBeNull();

    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("with a read grant, offers no edit or delete, and stays chosen across a reload", async () => {
    const owner = apiWallet(env.stack.baseUrl);
    const ownerAddress = owner.account.address.toLowerCase();
    const id = await owner.store("The office plants need water on Fridays", { namespace: "ops" });
    const { key } = await newGrantee(owner, "ops", "read");

    const { page, context, problems, received } = await openAsGrantee(env, key, ownerAddress);
    await waitForText(page.getByTestId("shared-banner"), /\(read only\)/);
    await page.reload();
    await waitForText(page.getByTestId("shared-banner"), /Showing namespace ops/);
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–1 of 1$/);

    await page.goto(`/#/memory/${id}`);
    await page.getByTestId("memory-content").waitFor();
    await page.getByTestId("read-only").waitFor();
    expect(await page.getByRole("button", { name: "Save changes" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete…" }).count()).toBe(0);

    // The sharing screen marks the namespace shown.
    await page.getByRole("link", { name: "Sharing" }).click();
    await waitForText(received.locator("td").last(), /^shown now$/);

    // Signing out forgets it: the next sign-in shows the wallet's own memories.
    await page.getByRole("button", { name: "Sign out" }).click();
    await signInWithKey(page, key);
    expect(await page.getByTestId("shared-banner").count()).toBe(0);
    await waitForText(page.getByTestId("list-summary"), /^No memories match\.$/);

    expect(problems).toEqual([]);
    await context.close();
  });
});
