/** Steps on the console's pages that several browser tests take. */
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

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
