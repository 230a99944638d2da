/**
 * The console's sharing screen in chromium against `wrangler dev`: an owner shares a namespace,
 * changes the grant and revokes it, and the console's list of the operations a grant opens is
 * the API's own. What a grantee sees: shared-namespace.test.ts.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { isShareable, SHARED_OPERATIONS } from "../../../console/src/shareable";
import { apiWallet, newAccount, openPage, screenshot, useStackAndBrowser } from "../harness";
import { signInWithKey, text, unlabelled, waitForText } from "./pages";

const env = useStackAndBrowser();

interface Grant {
  grantee: string;
  namespace: string;
  permission: string;
}

describe("the operations a grant opens", () => {
  it("are exactly those /openapi.json marks x-shared, with the same need", async () => {
    const doc = (await (await fetch(`${env.stack.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const marked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        // Aliases are the public clients' paths; the console calls the operations' own.
        if (op["x-shared"] && !op["x-alias-of"]) {
          marked.push(`${method.toUpperCase()} ${path} ${String(op["x-shared"])}`);
        }
      }
    }
    expect(SHARED_OPERATIONS.map((o) => o.join(" ")).sort()).toEqual(marked.sort());

    const id = "2f1c7a56-2c5e-4b38-9b7e-3c1b9f6d2a10";
    expect(isShareable("GET", `/v1/memories/${id}?x=1`)).toBe(true);
    expect(isShareable("get", "/v1/memories?namespace=team")).toBe(true);
    expect(isShareable("PATCH", "/v1/memories/batch")).toBe(true);
    expect(isShareable("GET", "/v1/memories/core")).toBe(false);
    expect(isShareable("GET", `/v1/memories/${id}/relations`)).toBe(false);
    expect(isShareable("POST", `/v1/memories/${id}/relations`)).toBe(false);
    expect(isShareable("DELETE", "/v1/memories")).toBe(false);
    expect(isShareable("GET", "/v1/namespaces")).toBe(false);
    expect(isShareable("GET", "/v1/grants")).toBe(false);
  });
});

describe("sharing a namespace", () => {
  it("grants, lists, changes and revokes, and refuses a grant to oneself", async () => {
    const { page, context, problems } = await openPage(env.browser, env.stack.baseUrl);
    const key = generatePrivateKey();
    const owner = apiWallet(env.stack.baseUrl, privateKeyToAccount(key));
    await owner.store("The team meets on Tuesdays", { namespace: "team" });
    const grantee = newAccount().address.toLowerCase();
    const grants = async () => (await owner.call<{ grants: Grant[] }>("GET", "/v1/grants")).grants;

    await signInWithKey(page, key);
    await page.getByRole("link", { name: "Sharing" }).click();
    await page.getByRole("heading", { name: "Sharing", level: 1 }).waitFor();
    await page.getByText("You share no namespace.").waitFor();
    await page.getByText("No wallet shares a namespace with you.").waitFor();
    // The owner's namespaces are offered for the namespace field.
    await expect.poll(() => page.locator("#s-namespaces option").count()).toBe(1);
    expect(await page.locator("#s-namespaces option").getAttribute("value")).toBe("team");

    // Grant read.
    await page.getByLabel("Wallet to share with (0x…)").fill(grantee);
    await page.getByLabel("Namespace", { exact: true }).fill("team");
    await page.getByRole("button", { name: "Share", exact: true }).click();
    await page.getByRole("status").getByText(`Shared "team" with ${grantee} (read).`).waitFor();
    const row = page.locator(`[data-testid=given-grants] tr[data-grantee="${grantee}"]`);
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    expect(cells[0]).toBe("team");
    expect(cells[1]).toBe(`${grantee.slice(0, 6)}…${grantee.slice(-4)}`);
    expect(await row.locator("td code").getAttribute("title")).toBe(grantee);
    expect(cells[2]).toBe("read");
    expect(cells[3]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(await grants()).toMatchObject([{ grantee, namespace: "team", permission: "read" }]);
    expect(await unlabelled(page)).toEqual([]);

    // Change it to write from its row, then back to read from the form.
    await row.getByRole("button", { name: /^Allow writing/ }).click();
    await page.getByRole("status").getByText(`${grantee} now has write on "team".`).waitFor();
    await waitForText(row.locator("td").nth(2), /^write$/);
    expect(await grants()).toMatchObject([{ grantee, namespace: "team", permission: "write" }]);
    await screenshot(page, "09-sharing");
    await row.getByRole("button", { name: /^Make read only/ }).click();
    await waitForText(row.locator("td").nth(2), /^read$/);
    expect(await grants()).toMatchObject([{ permission: "read" }]);

    // A second grant, then one to oneself: the API's 422 with the field it names.
    await page.getByLabel("Namespace", { exact: true }).fill("notes");
    await page.getByRole("button", { name: "Share", exact: true }).click();
    await expect.poll(() => page.locator("[data-testid=given-grants] tbody tr").count()).toBe(2);
    await page.getByLabel("Wallet to share with (0x…)").fill(owner.account.address);
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const error = page.getByTestId("api-error");
    await waitForText(error, /VALIDATION_ERROR \(HTTP 422\)/);
    expect(await text(error)).toContain("grantee");
    expect(await grants()).toHaveLength(2);

    // Revoke both: the list is empty again, here and in the API.
    for (const namespace of ["team", "notes"]) {
      const which = page.locator("[data-testid=given-grants] tr", { hasText: namespace });
      await which.getByRole("button", { name: /^Revoke/ }).click();
      await page
        .getByRole("status")
        .getByText(`Revoked ${grantee}'s read on "${namespace}".`)
        .waitFor();
    }
    await page.getByText("You share no namespace.").waitFor();
    expect(await grants()).toEqual([]);

    expect(problems.filter((p) => !p.includes("422"))).toEqual([]);
    await context.close();
  });
});
