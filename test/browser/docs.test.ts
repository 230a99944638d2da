/**
 * GET /docs, the API reference, renders in Debian's chromium with every request outside the
 * service refused (no CDN, no font host: its scripts and styles are the Worker's own), with no
 * console error (a CSP violation is one), and lists every operation of /openapi.json.
 */
import { describe, expect, it } from "vitest";
import { openPage, SCREENSHOTS, screenshot, useStackAndBrowser } from "./harness";

const env = useStackAndBrowser();

describe("GET /docs", () => {
  it("renders every operation offline, from the Worker's own files", async () => {
    const { page, context, problems } = await openPage(env.browser, env.stack.baseUrl);
    const origin = new URL(env.stack.baseUrl).origin;
    const outside: string[] = [];
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith("data:")) return route.continue();
      outside.push(url);
      return route.abort("internetdisconnected");
    });
    const doc = (await (await fetch(`${env.stack.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(doc.paths).reduce(
      (n, item) => n + Object.keys(item).length,
      0,
    );

    await page.goto("/docs");
    await expect.poll(() => page.locator(".opblock").count(), { timeout: 30_000 }).toBe(operations);
    expect(await page.locator(".info .title").textContent()).toContain("memory-service");
    await page.locator(".opblock-summary-path", { hasText: "/v1/recall" }).first().click();
    await expect
      .poll(() => page.locator(".opblock.is-open .responses-table").count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await screenshot(page, "api-docs");
    // The top of the page too, as the README shows it.
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: `${SCREENSHOTS}/api-docs-top.png` });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
