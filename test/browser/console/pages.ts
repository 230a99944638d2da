/** Steps on the console's pages that several browser tests take. */
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { openPage, type useStackAndBrowser } from "../harness";

export const text = async (locator: Locator) => ((await locator.textContent()) ?? "").trim();

/** Waits until the locator's text matches (the UI updates after each API answer). */
export async function waitForText(locator: Locator, pattern: RegExp, timeout = 20_000) {
  await expect.poll(() => text(locator), { timeout }).toMatch(pattern);
}

/** Form controls and buttons with no name a screen reader could announce. */
export async function unlabelled(page: Page): Promise<string[]> {
  return (await page.evaluate(`[...document.querySelectorAll("input, select, textarea, button")]
    .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute("aria-label")
      && !(e.tagName === "BUTTON" && e.textContent.trim()))
    .map((e) => e.outerHTML.slice(0, 100))`)) as string[];
}

export async function signInWithTestWallet(page: Page) {
  await page.goto("/");
  await page.getByRole("button", { name: "Use a new test wallet" }).click();
  await page.getByTestId("wallet").waitFor();
  const raw = await page.evaluate("sessionStorage.getItem('memory-console.session')");
  const session = JSON.parse(String(raw)) as { token: string; wallet: string };
  return session;
}

export async function signInWithKey(page: Page, key: string) {
  await page.goto("/");
  await page.getByLabel("Private key (64 hex characters)").fill(key);
  await page.getByRole("button", { name: "Sign in with this key" }).click();
  await page.getByTestId("wallet").waitFor();
}

/** Records the page's responses of 400 and above ("status url"), for a test to expect none. */
export function refusedResponses(page: Page): string[] {
  const refused: string[] = [];
  page.on("response", (res) => {
    if (res.status() >= 400) refused.push(`${res.status()} ${res.url()}`);
  });
  return refused;
}

/** The sharing screen's row of the grant the signed-in wallet received from `owner` (lower case). */
export const receivedGrant = (page: Page, owner: string) =>
  page.locator(`[data-testid=received-grants] tr[data-owner="${owner}"]`);

/** Opens, from the sharing screen, the namespace `owner` shared; returns the grant's row. */
export async function openReceivedGrant(page: Page, owner: string): Promise<Locator> {
  await page.getByRole("link", { name: "Sharing" }).click();
  const received = receivedGrant(page, owner);
  await received.getByRole("button", { name: /^Open/ }).click();
  return received;
}

/**
 * A new page signed in with the grantee's `key`, showing the namespace `owner` (lower case)
 * shared with it, opened from the sharing screen: the page, its grant's row, and the
 * responses of 400 and above it received (refusedResponses).
 */
export async function openAsGrantee(
  env: ReturnType<typeof useStackAndBrowser>,
  key: string,
  owner: string,
) {
  const opened = await openPage(env.browser, env.stack.baseUrl);
  const refused = refusedResponses(opened.page);
  await signInWithKey(opened.page, key);
  const received = await openReceivedGrant(opened.page, owner);
  return { ...opened, refused, received };
}
