/**
 * The browser tests' service and browser: an embedded database of their own (in memory),
 * `wrangler dev` on a free port (local/service.ts builds the console first), and
 * Debian's chromium driven by playwright-core. Nothing is downloaded: CHROMIUM_PATH or
 * /usr/bin/chromium must exist (.ci/run installs it with apt-get).
 */
import { existsSync, mkdirSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll } from "vitest";
import { startLocalDatabase } from "../../local/db/start";
import { freePort } from "../../local/free-port";
import { ROOT, startWrangler, waitForHealth } from "../../local/service";

export const SCREENSHOTS = `${ROOT}test-artifacts/console`;
const PREFIX = "service-auth";

export interface Stack {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startStack(): Promise<Stack> {
  const database = await startLocalDatabase({ dataDir: "memory://" });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const service = await startWrangler({
    port,
    quiet: true,
    vars: {
      ...database.workerVars,
      JWT_SECRET: "browser-test-secret-browser-test-secret-0123",
      // The lexical embedder: the console shows whatever signals the service computes, and
      // the tests need no model process.
      EMBEDDER: "local",
    },
  });
  const stop = async () => {
    service.stop();
    await database.stop();
  };
  try {
    await waitForHealth(baseUrl, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl, stop };
}

/**
 * A test file's service and browser: started before its tests (together, they take a while),
 * stopped after. Read them through the getters once the tests run.
 */
export function useStackAndBrowser() {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium()]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (!value) throw new Error(`${what} did not start`);
    return value;
  };
  return {
    get stack() {
      return started(stack, "the service");
    },
    get browser() {
      return started(browser, "chromium");
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(executablePath)) {
    throw new Error(
      `no chromium at ${executablePath}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A fresh page (its own context: no sessionStorage shared) that records every error. */
export async function openPage(browser: Browser, baseUrl: string) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 860 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
  });
  return { page, context, problems };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** A wallet the test holds the key of, calling the API the way any client does. */
export function apiWallet(baseUrl: string, account: PrivateKeyAccount = newAccount()) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const ts = Math.floor(Date.now() / 1000);
    const signature = await account.signMessage({ message: `${PREFIX}:${ts}` });
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        "x-wallet-auth": `${account.address}:${ts}:${signature}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  return { account, call, ...helpers(call) };
}

/** The same calls with a session token (the one the console got at sign-in). */
export function apiSession(baseUrl: string, token: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  return { call, ...helpers(call) };
}

type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

function helpers(call: Call) {
  return {
    async store(content: string, fields: Record<string, unknown> = {}): Promise<string> {
      const res = await call<{ id: string }>("POST", "/v1/store", { content, ...fields });
      return res.id;
    },
    async count(): Promise<number> {
      return (await call<{ count: number }>("GET", "/v1/memories/count")).count;
    },
    /** Stores a memory in the namespace of `owner` (an address) that granted this wallet write. */
    async storeFor(owner: string, content: string, fields: Record<string, unknown> = {}) {
      const res = await call<{ id: string }>("POST", `/v1/store?owner=${owner}`, {
        content,
        ...fields,
      });
      return res.id;
    },
    /** Grants `grantee` (an address) `permission` on this wallet's `namespace`. */
    grant: (grantee: string, namespace: string, permission: "read" | "write") =>
      call("POST", "/v1/grants", { grantee, namespace, permission }),
  };
}

export const newAccount = () => privateKeyToAccount(generatePrivateKey());

/**
 * A new wallet that `owner` grants `permission` on its `namespace`: its key (to sign in to the
 * console with) and account.
 */
export async function newGrantee(
  owner: ReturnType<typeof apiWallet>,
  namespace: string,
  permission: "read" | "write",
) {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await owner.grant(account.address, namespace, permission);
  return { key, account };
}
