/**
 * The web console in a real browser (Debian's chromium through playwright-core) against the
 * service under `wrangler dev`, as `npm run dev` serves it: how the Worker serves it, a
 * refused session, and each screen of a signed-in wallet. Each test signs in its own wallet
 * in its own browser context; screenshots of each screen go to test-artifacts/console/.
 */
import { describe, expect, it } from "vitest";
import { RECALL_SIGNALS } from "../../../console/src/signals";
import { apiSession, newAccount, openPage, screenshot, useStackAndBrowser } from "../harness";
import { signInWithTestWallet, text, unlabelled, waitForText } from "./pages";

const env = useStackAndBrowser();

describe("the console is served by the Worker", () => {
  it("answers / and /console/* with the console, and every API path as before", async () => {
    const home = await fetch(`${env.stack.baseUrl}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toMatch(/^text\/html/);
    expect(home.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await home.text()).toContain('<script type="module" src="/console/app.js">');
    const app = await fetch(`${env.stack.baseUrl}/console/app.js`);
    expect(app.status).toBe(200);
    expect(app.headers.get("content-type")).toMatch(/javascript/);
    expect(await (await fetch(`${env.stack.baseUrl}/console/config.json`)).json()).toEqual({
      test_wallet: true,
    });

    const health = await fetch(`${env.stack.baseUrl}/health`);
    expect(health.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await health.json()) as { status: string }).status).toBe("ok");
    for (const [path, status, code] of [
      ["/nope", 404, "NOT_FOUND"],
      ["/console/nope.js", 404, "NOT_FOUND"],
      ["/v1/nope", 401, "UNAUTHORIZED"],
      ["/v1/memories", 401, "UNAUTHORIZED"],
    ] as const) {
      const res = await fetch(`${env.stack.baseUrl}${path}`);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      const body = (await res.json()) as { error: { code: string; request_id: string } };
      expect(body.error.code, path).toBe(code);
      expect(body.error.request_id, path).toBeTruthy();
    }
    const session = await fetch(`${env.stack.baseUrl}/auth/session`, {
      method: "POST",
      body: "{}",
    });
    expect(session.status).toBe(422);
    expect(session.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("a session the service refuses", () => {
  it("signs the tab out and shows the API's reason with its request id", async () => {
    const { page, context, problems } = await openPage(env.browser, env.stack.baseUrl);
    const stale = {
      token: "not-a-token-this-service-issued",
      wallet: newAccount().address,
      expiresAt: "2999-01-01T00:00:00.000Z",
      method: "test-wallet",
    };
    // Seeded before the console's script runs, once (a later load keeps what the app left).
    await page.addInitScript({
      content: `if (!sessionStorage.getItem("seeded")) {
        sessionStorage.setItem("seeded", "1");
        sessionStorage.setItem("memory-console.session", ${JSON.stringify(JSON.stringify(stale))});
      }`,
    });
    await page.goto("/");
    await page.getByRole("heading", { name: "Sign in with a wallet" }).waitFor();
    const notice = page.getByTestId("api-error");
    await waitForText(notice, /You were signed out: UNAUTHORIZED \(HTTP 401\)/);
    expect(await text(page.getByTestId("request-id"))).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.evaluate("sessionStorage.getItem('memory-console.session')")).toBeNull();
    expect(problems.filter((p) => !p.includes("401"))).toEqual([]);
    await context.close();
  });
});

describe("signed in with the dev test wallet", () => {
  it("lists stored memories, recalls with every signal, draws the graph, edits with history", async () => {
    const { page, context, problems } = await openPage(env.browser, env.stack.baseUrl);
    await page.goto("/");
    await page.getByRole("heading", { name: "Sign in with a wallet" }).waitFor();
    await screenshot(page, "01-sign-in");
    expect(await unlabelled(page)).toEqual([]);

    const session = await signInWithTestWallet(page);
    expect(session.wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await text(page.getByTestId("wallet"))).toBe(session.wallet);

    // Three memories stored through the API with the console's own session token.
    const api = apiSession(env.stack.baseUrl, session.token);
    const darkMode = await api.store("The user prefers dark mode in every code editor", {
      memory_type: "preference",
      importance: 0.8,
      tags: ["ui", "editor"],
    });
    const deploy = await api.store("The team decided to deploy the API on Cloudflare Workers", {
      memory_type: "decision",
      importance: 0.9,
      tags: ["infra"],
    });
    const planning = await api.store("Weekly planning happens on Monday mornings at nine", {
      memory_type: "project",
      namespace: "team",
    });

    await page.getByRole("button", { name: "Apply filters" }).click();
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–3 of 3$/);
    const rows = page.locator("[data-testid=memory-table] tbody tr");
    expect(await rows.count()).toBe(3);
    const darkRow = page.locator(`tr[data-memory-id="${darkMode}"]`);
    expect(await text(darkRow)).toContain("The user prefers dark mode in every code editor");
    const cells = await darkRow.locator("td").allTextContents();
    expect(cells[1]).toBe("0.80");
    expect(cells[2]).toBe("preference");
    expect(cells[3]).toBe("uieditor");
    expect(cells[4]).toBe("default");
    expect(cells[7]).toBe("0");
    await screenshot(page, "02-memories");
    expect(await unlabelled(page)).toEqual([]);

    // Keyboard: the skip button focuses the screen's heading; a row opens with Enter.
    await page.locator(".skip").focus();
    await page.keyboard.press("Enter");
    expect(await page.evaluate("document.activeElement.id")).toBe("memories-title");
    await page.locator(`tr[data-memory-id="${deploy}"] a`).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/#/memory/${deploy}`);
    await page.getByTestId("memory-content").waitFor();
    expect(await unlabelled(page)).toEqual([]);
    await page.goBack();

    // Filters: the namespace narrows the page to the one memory in "team".
    await page.getByLabel("Namespace", { exact: true }).fill("team");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–1 of 1$/);
    expect(await page.locator(`tr[data-memory-id="${planning}"]`).count()).toBe(1);
    await page.getByRole("button", { name: "Reset" }).click();
    await waitForText(page.getByTestId("list-summary"), /of 3$/);

    // Recall: ranked results with the score and each of the _signals.
    await page.getByRole("link", { name: "Recall & search" }).click();
    await page.getByLabel("Query").fill("which code editor theme does the user prefer");
    await page.getByRole("button", { name: "Recall", exact: true }).click();
    const recallRows = page.locator("[data-testid=recall-table] tbody tr");
    await recallRows.first().waitFor();
    expect(await recallRows.first().getAttribute("data-memory-id")).toBe(darkMode);
    const signals: Record<string, number> = {};
    for (const cell of await recallRows.first().locator("td[data-signal]").all()) {
      signals[String(await cell.getAttribute("data-signal"))] = Number(await text(cell));
    }
    // The score, each signal of docs/recall.md's table, and the access boost.
    for (const name of ["score", ...RECALL_SIGNALS, "access_boost"]) {
      expect(Number.isFinite(signals[name]), name).toBe(true);
    }
    expect(signals.base_importance).toBeCloseTo(0.8, 4);
    expect(signals.score).toBeGreaterThan(0);
    expect(signals.keyword).toBeGreaterThan(0);
    await screenshot(page, "03-recall");
    expect(await unlabelled(page)).toEqual([]);

    // Full-text search and the context block.
    await page.getByLabel("Full-text search").check();
    await page.getByLabel("Query").fill("Cloudflare");
    await page.getByRole("button", { name: "Full-text search" }).click();
    await waitForText(page.getByTestId("search-results"), /deploy the API on Cloudflare Workers/);
    await page.getByLabel("Context block").check();
    await page.getByLabel(/^Query/).fill("deploy");
    await page.getByRole("button", { name: "Context block" }).click();
    await waitForText(page.getByTestId("context-block"), /Relevant memories/);

    // A relation made in the console, and a consolidation-style supersedes to a memory that
    // was then deleted: the graph shows both, the merged one outlined.
    const old = await api.store("The user used a light editor theme in 2023", {
      memory_type: "preference",
    });
    await api.call("POST", `/v1/memories/${darkMode}/relations`, {
      target_id: old,
      relation_type: "supersedes",
    });
    await api.call("DELETE", `/v1/memories/${old}`);
    await page.goto(`/#/memory/${darkMode}`);
    await page.getByTestId("memory-content").waitFor();
    await page.getByLabel("Relation (this memory → target)").selectOption("related_to");
    await page.getByLabel("Target memory id").fill(deploy);
    await page.getByRole("button", { name: "Add relation" }).click();
    await page.getByRole("status").getByText("Relation added.").waitFor();

    await page.getByRole("link", { name: "Show relation graph" }).click();
    await page.getByTestId("graph-canvas").waitFor();
    await waitForText(page.getByTestId("graph-edges"), /related_to/);
    const edges = await text(page.getByTestId("graph-edges"));
    expect(edges).toContain("supersedes");
    const nodes = await text(page.getByTestId("graph-nodes"));
    expect(nodes).toContain("merged, deleted");
    expect(nodes).toContain("deploy the API on Cloudflare Workers");
    await page.waitForTimeout(300); // the layout settles before the picture
    await screenshot(page, "04-graph");
    expect(await unlabelled(page)).toEqual([]);

    // Clicking a node on the canvas opens that memory.
    await page.getByTestId("graph-canvas").scrollIntoViewIfNeeded();
    const at = (await page.evaluate(
      `window.memoryConsoleGraph?.nodeAt(${JSON.stringify(deploy)}) ?? null`,
    )) as { x: number; y: number } | null;
    const box = await page.getByTestId("graph-canvas").boundingBox();
    expect(at && box).toBeTruthy();
    if (!at || !box) return;
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.waitForURL(`**/#/memory/${deploy}`);
    await waitForText(page.getByTestId("memory-content"), /deploy the API on Cloudflare Workers/);

    // Edit: PATCH through the form, then the history shows the change.
    await page.goto(`/#/memory/${darkMode}`);
    await page.getByTestId("memory-content").waitFor();
    await page
      .getByLabel("Content")
      .fill("The user prefers dark mode in every code editor and terminal");
    await page.getByLabel("Importance (0–1)").fill("0.95");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").getByText("Saved. A history entry was written.").waitFor();
    await waitForText(page.getByTestId("history"), /and terminal/);
    expect(await text(page.getByTestId("memory-content"))).toBe(
      "The user prefers dark mode in every code editor and terminal",
    );
    const history = await api.call<{ history: Array<{ changes: Record<string, unknown> }> }>(
      "GET",
      `/v1/memories/${darkMode}/history`,
    );
    expect(history.history).toHaveLength(1);
    await screenshot(page, "05-memory");

    // Pin from the detail page.
    await page.getByRole("button", { name: "Pin", exact: true }).click();
    await page.getByRole("button", { name: "Unpin" }).waitFor();

    // Delete, after a confirmation, from the detail page: back to a list without it.
    await page.goto(`/#/memory/${planning}`);
    await page.getByTestId("memory-content").waitFor();
    expect(await page.title()).toBe("Memory · Memory console");
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Yes, delete it" }).click();
    await page.waitForURL("**/#/memories");
    await waitForText(page.getByTestId("list-summary"), /^Showing 1–2 of 2$/);
    expect(await page.locator(`tr[data-memory-id="${planning}"]`).count()).toBe(0);

    // Insights: namespaces, stats, suggestions, the free tier.
    await page.getByRole("link", { name: "Insights" }).click();
    await waitForText(page.getByTestId("free-tier"), /of 100 free paid calls left/);
    await waitForText(page.getByTestId("stats"), /Memories2/);
    await page.getByRole("heading", { name: /^fresh/ }).waitFor();
    // A background job started here, followed until it finishes.
    await page.getByRole("button", { name: "Start consolidation dry run" }).click();
    await waitForText(page.getByTestId("jobs"), /succeeded\s*consolidate/, 30_000);
    await screenshot(page, "06-insights");
    expect(await unlabelled(page)).toEqual([]);

    expect(problems).toEqual([]);
    await context.close();
  });
});
