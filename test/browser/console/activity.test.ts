/**
 * The activity screen (docs/console.md), in chromium against `wrangler dev`: the change feed
 * newest first, followed live with long polls, one request at a time and none once the screen
 * is left: a store made through the API shows without a reload, a grantee's write is marked,
 * the namespace filter keeps to its namespace; and a grantee follows a namespace shared with it.
 */
import type { Page } from "playwright-core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { apiWallet, newGrantee, openPage, screenshot, useStackAndBrowser } from "../harness";
import { openAsGrantee, signInWithKey, text, unlabelled, waitForText } from "./pages";

const env = useStackAndBrowser();

const rows = (page: Page) => page.locator("[data-testid=activity-table] tbody tr");

/** The memory ids of the shown events of `kind`, top to bottom. */
const memoryIds = (page: Page, kind = "memory.stored") =>
  rows(page).evaluateAll(
    (trs, k) => trs.filter((tr) => tr.dataset.kind === k).map((tr) => tr.dataset.memoryId),
    kind,
  );

/**
 * Counts the page's calls of GET /v1/changes, in the page itself: how many were ever
 * outstanding at once, how many are now, and how many were sent. A call ends when its answer
 * comes or when it is aborted (which cancels the request at once).
 */
const COUNT_FEED_CALLS = `(() => {
  const counts = { outstanding: 0, most: 0, sent: 0 };
  window.__feedCalls = counts;
  const original = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === "string" ? input : input.url;
    if (new URL(url, location.href).pathname !== "/v1/changes") {
      return original.call(this, input, init);
    }
    counts.sent++;
    counts.outstanding++;
    counts.most = Math.max(counts.most, counts.outstanding);
    let open = true;
    const close = () => {
      if (open) {
        open = false;
        counts.outstanding--;
      }
    };
    init?.signal?.addEventListener("abort", close, { once: true });
    const answer = original.call(this, input, init);
    answer.then(close, close);
    return answer;
  };
})()`;

interface FeedCalls {
  outstanding: number;
  most: number;
  sent: number;
}
const feedCalls = async (page: Page) => (await page.evaluate("window.__feedCalls")) as FeedCalls;

describe("the activity screen", () => {
  it("follows the feed live, marks a grantee's write, filters by namespace, and stops when left", async () => {
    const key = generatePrivateKey();
    const wallet = apiWallet(env.stack.baseUrl, privateKeyToAccount(key));
    const address = wallet.account.address.toLowerCase();
    const grantee = apiWallet(env.stack.baseUrl);
    const granteeAddress = grantee.account.address.toLowerCase();
    const first = await wallet.store("The boiler is serviced every October", {
      namespace: "house",
    });

    const { page, context, problems } = await openPage(env.browser, env.stack.baseUrl);
    await page.addInitScript(COUNT_FEED_CALLS);
    await signInWithKey(page, key);
    await page.getByRole("link", { name: "Activity" }).click();
    await page.waitForURL("**/#/activity");
    await page.getByRole("heading", { name: "Activity", level: 1 }).waitFor();

    // What was stored before the screen opened.
    await expect.poll(() => memoryIds(page)).toEqual([first]);
    const firstRow = rows(page).first();
    expect(await firstRow.locator("a").getAttribute("href")).toBe(`#/memory/${first}`);
    expect(await text(firstRow.locator("a"))).toBe("The boiler is serviced every October");
    const cells = await firstRow.locator("td").allTextContents();
    expect(cells[3]).toBe("house");
    expect(await firstRow.locator("td").last().locator("code").getAttribute("title")).toBe(address);
    expect(await firstRow.getByTestId("writer").count()).toBe(0);
    await waitForText(page.getByTestId("activity-status"), /^Following live/);

    // A store through the API shows at the top, without a reload.
    const second = await wallet.store("The gutters are cleared in November", {
      namespace: "garden",
    });
    await expect.poll(() => memoryIds(page), { timeout: 10_000 }).toEqual([second, first]);

    // A grantee's write in a namespace shared with it: marked as the grantee's.
    await wallet.grant(granteeAddress, "house", "write");
    const theirs = await grantee.storeFor(address, "The attic window latch was replaced", {
      namespace: "house",
    });
    await expect.poll(() => memoryIds(page), { timeout: 10_000 }).toEqual([theirs, second, first]);
    const theirRow = page.locator(`tr[data-kind="memory.stored"][data-memory-id="${theirs}"]`);
    expect(await theirRow.locator("td").last().locator("code").getAttribute("title")).toBe(
      granteeAddress,
    );
    expect(await text(theirRow.getByTestId("writer"))).toBe("grantee");
    const grantRow = rows(page).filter({ has: page.locator("code", { hasText: "grant.given" }) });
    expect(await grantRow.count()).toBe(1);
    expect(await unlabelled(page)).toEqual([]);
    await screenshot(page, "30-activity");

    // Only the namespace asked for; still live.
    await page.getByLabel("Namespace", { exact: true }).fill("garden");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(() => memoryIds(page)).toEqual([second]);
    expect(await rows(page).count()).toBe(1);
    const third = await wallet.store("The hedge is trimmed in March", { namespace: "garden" });
    await wallet.store("The doorbell battery was changed", { namespace: "house" });
    await expect.poll(() => memoryIds(page), { timeout: 10_000 }).toEqual([third, second]);

    // One poll at a time throughout; none once the screen is left.
    expect((await feedCalls(page)).most).toBe(1);
    await page.getByRole("link", { name: "Memories" }).click();
    await page.waitForURL("**/#/memories");
    // The screen unmounts on the render after the hash change, and its cleanup aborts the poll.
    await page.getByRole("heading", { name: "Memories", level: 1 }).waitFor();
    await expect.poll(async () => (await feedCalls(page)).outstanding).toBe(0);
    const { sent } = await feedCalls(page);
    await wallet.store("The porch light timer was reset", { namespace: "house" });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await feedCalls(page)).sent).toBe(sent);

    // Paused: nothing is fetched until it follows again, from where it stopped.
    await page.getByRole("link", { name: "Activity" }).click();
    await waitForText(page.getByTestId("activity-status"), /^Following live/);
    await page.getByLabel("Follow live").uncheck();
    await waitForText(page.getByTestId("activity-status"), /^Paused/);
    expect((await feedCalls(page)).outstanding).toBe(0);
    const later = await wallet.store("The smoke alarm was tested", { namespace: "house" });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await page.locator(`tr[data-memory-id="${later}"]`).count()).toBe(0);
    await page.getByLabel("Follow live").check();
    await expect
      .poll(() => page.locator(`tr[data-memory-id="${later}"]`).count(), { timeout: 10_000 })
      .toBe(1);
    expect((await feedCalls(page)).most).toBe(1);

    expect(problems).toEqual([]);
    await context.close();
  });

  it("follows a namespace shared with the signed-in wallet, the owner's writes marked", async () => {
    const owner = apiWallet(env.stack.baseUrl);
    const ownerAddress = owner.account.address.toLowerCase();
    const crane = await owner.store("The harbour crane is serviced in April", {
      namespace: "ops",
    });
    const salary = await owner.store("The harbour master's salary is confidential", {
      namespace: "hr",
    });
    const { key } = await newGrantee(owner, "ops", "read");

    const { page, context, problems, refused } = await openAsGrantee(env, key, ownerAddress);
    await waitForText(page.getByTestId("shared-banner"), /Showing namespace ops/);

    await page.getByRole("link", { name: "Activity" }).click();
    await expect.poll(() => memoryIds(page)).toEqual([crane]);
    const namespace = page.getByLabel("Namespace", { exact: true });
    expect(await namespace.inputValue()).toBe("ops");
    expect(await namespace.getAttribute("readonly")).not.toBeNull();
    const craneRow = rows(page).filter({ has: page.locator(`a[href="#/memory/${crane}"]`) });
    expect(await text(craneRow.first().getByTestId("writer"))).toBe("owner");
    expect(await page.locator(`tr[data-memory-id="${salary}"]`).count()).toBe(0);
    await waitForText(page.getByTestId("activity-status"), /^Following live/);

    // The owner's next store in the shared namespace shows live; one in another does not.
    await owner.store("The hr handbook was revised", { namespace: "hr" });
    const cable = await owner.store("The crane's new cable arrived", { namespace: "ops" });
    await expect.poll(() => memoryIds(page), { timeout: 10_000 }).toEqual([cable, crane]);
    expect(await text(page.locator("main"))).not.toContain("hr handbook");

    // The memory's link opens it through the grant.
    await rows(page).first().locator(`a[href="#/memory/${cable}"]`).click();
    await waitForText(page.getByTestId("memory-content"), /new cable arrived/);

    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
