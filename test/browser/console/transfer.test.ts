/**
 * The web console in chromium against `wrangler dev`: export and import of memories, and two
 * wallets that never see each other's memories. Screenshots go to test-artifacts/console/.
 */
import { readFileSync } from "node:fs";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { apiWallet, newAccount, openPage, screenshot, useStackAndBrowser } from "../harness";
import { signInWithKey, text, unlabelled, waitForText } from "./pages";

const env = useStackAndBrowser();

describe("import and export", () => {
  it("exports JSON and CSV, re-imports the JSON, imports over several requests with progress", async () => {
    const { page, context, problems } = await openPage(env.browser, env.stack.baseUrl);
    const key = generatePrivateKey();
    const wallet = apiWallet(env.stack.baseUrl, privateKeyToAccount(key));
    await wallet.store("Export me: the user likes green tea", { tags: ["drinks"] });
    await wallet.store("Export me: standup is at ten, in the small room", {
      memory_type: "project",
      namespace: "work",
      metadata: { source: "chat, line 3" },
    });
    await wallet.store('Export me: "quoted", with commas, and\na second line', {
      importance: 0.7,
    });

    await signInWithKey(page, key);
    expect((await text(page.getByTestId("wallet"))).toLowerCase()).toBe(
      wallet.account.address.toLowerCase(),
    );
    await page.getByRole("link", { name: "Import & export" }).click();

    // JSON export, downloaded.
    await page.getByRole("button", { name: "Export", exact: true }).click();
    const [jsonDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("export-download").click(),
    ]);
    const jsonText = readFileSync(String(await jsonDownload.path()), "utf8");
    const exported = JSON.parse(jsonText) as { count: number; memories: unknown[] };
    expect(exported.count).toBe(3);
    expect(exported.memories).toHaveLength(3);

    // CSV export: a header and one record per memory (one spans two lines).
    await page.getByLabel("Format", { exact: true }).first().selectOption("csv");
    await page.getByRole("button", { name: "Export", exact: true }).click();
    const [csvDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("export-download").click(),
    ]);
    const csv = readFileSync(String(await csvDownload.path()), "utf8");
    expect(csv.startsWith("id,namespace,content,")).toBe(true);
    expect(csv).toContain('"Export me: ""quoted"", with commas, and\na second line"');

    // Re-import of the JSON export: every memory is already there.
    const files = page.getByLabel("Files");
    await files.setInputFiles({
      name: "export.json",
      mimeType: "application/json",
      buffer: Buffer.from(jsonText),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText(/0 memories created, 3 already there/).waitFor();
    expect(await wallet.count()).toBe(3);

    // The CSV export re-imports into another namespace as new memories.
    await files.setInputFiles({
      name: "export.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csv),
    });
    await page.getByLabel("Into namespace (empty: as in the file)").fill("from-csv");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText(/3 memories created, 0 already there/).waitFor();
    const fromCsv = await wallet.call<{ memories: Array<{ content: string; metadata: unknown }> }>(
      "GET",
      "/v1/memories?namespace=from-csv&limit=10",
    );
    expect(fromCsv.memories.map((m) => m.content).sort()).toEqual([
      'Export me: "quoted", with commas, and\na second line',
      "Export me: standup is at ten, in the small room",
      "Export me: the user likes green tea",
    ]);
    await page.getByLabel("Into namespace (empty: as in the file)").fill("");

    // 250 memories: three requests of at most 100, and the progress bar moves with each.
    const many = Array.from({ length: 250 }, (_, i) => ({
      content: `Imported note number ${i + 1}: topic ${["alpha", "beta", "gamma", "delta"][i % 4]} ${i * 7}`,
      namespace: "bulk",
    }));
    await page.evaluate(`(() => {
      window.__progress = [];
      new MutationObserver(() => {
        const label = document.querySelector("[data-testid=import-progress] label");
        const value = label ? label.textContent : null;
        if (value && window.__progress[window.__progress.length - 1] !== value) window.__progress.push(value);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    await files.setInputFiles({
      name: "many.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(many)),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText(/250 memories created, 0 already there/).waitFor({ timeout: 90_000 });
    const seen = (await page.evaluate("window.__progress")) as string[];
    expect(seen).toEqual(
      expect.arrayContaining([
        "0 of 250 memories (0 of 3 requests)",
        "100 of 250 memories (1 of 3 requests)",
        "200 of 250 memories (2 of 3 requests)",
        "250 of 250 memories (3 of 3 requests)",
      ]),
    );
    expect(await page.evaluate("document.getElementById('import-bar').value")).toBe(100);
    expect(await wallet.count()).toBe(256);

    // Markdown files go to POST /v1/migrate, one memory per ## section.
    await files.setInputFiles([
      {
        name: "notes-2026-01-05.md",
        mimeType: "text/markdown",
        buffer: Buffer.from(
          "# Notes\n\n## Editor\nWe decided to use Helix.\n\n## Lunch\nThe user prefers sushi on Fridays.\n",
        ),
      },
      {
        name: "more.md",
        mimeType: "text/markdown",
        buffer: Buffer.from("## Travel\nThe user always flies with a window seat.\n"),
      },
    ]);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText(/Done: 1 of 1 requests\. 3 memories created/).waitFor();
    await screenshot(page, "07-import-export");
    expect(await unlabelled(page)).toEqual([]);

    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("two wallets", () => {
  it("a second wallet, signed in with a browser wallet, sees none of the first one's memories", async () => {
    const first = apiWallet(env.stack.baseUrl);
    const secret = await first.store("First wallet only: the launch code word is heliotrope");
    await first.store("First wallet only: the user prefers tabs over spaces");

    // The second wallet is an injected EIP-1193 provider whose key stays in this test.
    const second = newAccount();
    const { page, context, problems } = await openPage(env.browser, env.stack.baseUrl);
    await page.exposeFunction("__walletSign", (hex: string) =>
      second.signMessage({ message: { raw: hex as `0x${string}` } }),
    );
    await page.addInitScript({
      content: `window.ethereum = {
        async request({ method, params }) {
          if (method === "eth_requestAccounts") return [${JSON.stringify(second.address)}];
          if (method === "personal_sign") return window.__walletSign(params[0]);
          throw new Error("unsupported method " + method);
        },
      };`,
    });
    await page.goto("/");
    await page.getByRole("button", { name: "Sign in with browser wallet" }).click();
    await page.getByTestId("wallet").waitFor();
    expect((await text(page.getByTestId("wallet"))).toLowerCase()).toBe(
      second.address.toLowerCase(),
    );

    await waitForText(page.getByTestId("list-summary"), /^No memories match\.$/);
    await page.getByRole("link", { name: "Recall & search" }).click();
    await page.getByLabel("Full-text search").check();
    await page.getByLabel("Query").fill("heliotrope");
    await page.getByRole("button", { name: "Full-text search" }).click();
    await page.getByRole("heading", { name: "0 matches" }).waitFor();

    // The first wallet's memory by its id: the API's 404, with its message and request id.
    await page.goto(`/#/memory/${secret}`);
    const error = page.getByTestId("api-error");
    await error.waitFor();
    expect(await text(error.locator(".error-code"))).toBe("NOT_FOUND");
    expect(await text(error)).toContain("HTTP 404");
    expect(await text(page.getByTestId("request-id"))).toMatch(/^[0-9a-f-]{36}$/);
    await screenshot(page, "08-second-wallet-404");

    await page.getByRole("link", { name: "Insights" }).click();
    await waitForText(page.getByTestId("stats"), /Memories0/);

    // The failed page load is the only error the browser saw (a 404 logged by chromium).
    expect(problems.filter((p) => !p.includes("404"))).toEqual([]);
    await context.close();
  });
});
