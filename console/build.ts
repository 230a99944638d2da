/**
 * Builds the web console (console/src) into the Worker's static assets (wrangler.toml
 * [assets]), for one of two environments:
 *   local       console/dist, with the one-click test wallet: what `wrangler dev` serves
 *               (npm run dev, the browser tests, the benchmark)
 *   production  console/dist-production, without it: what `--env production` deploys
 * Each holds index.html (served at /), _headers (CSP, nosniff) and console/app.js, app.css
 * (one bundle each: Preact, Cytoscape, viem's signer; no CDN) and console/config.json
 * ({"test_wallet": boolean}); and docs/assets/: Swagger UI's script and styles from the pinned
 * swagger-ui-dist package plus docs.js, for the API reference the Worker serves at /docs.
 * local/service.ts runs it before `wrangler dev` starts and, under npm run dev, again when
 * console/src changes; `wrangler deploy --env production` runs it ([env.production.build]).
 *
 *   node --import tsx console/build.ts [--production]
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { build } from "esbuild";

const HERE = new URL(".", import.meta.url).pathname;
export const CONSOLE_SRC = `${HERE}src`;
export const CONSOLE_DIST = `${HERE}dist`;
export const CONSOLE_DIST_PRODUCTION = `${HERE}dist-production`;

export interface ConsoleBuild {
  outDir: string;
  testWallet: boolean;
  /** Bytes of app.js and app.css. */
  bytes: number;
  /** The project's files the bundle was built from (absolute paths; no dependencies). */
  inputs: string[];
  ms: number;
}

export async function buildConsole(opts: {
  testWallet: boolean;
  outDir: string;
}): Promise<ConsoleBuild> {
  const started = Date.now();
  const { outDir } = opts;
  mkdirSync(`${outDir}/console`, { recursive: true });
  const result = await build({
    entryPoints: { app: `${CONSOLE_SRC}/main.tsx` },
    outdir: `${outDir}/console`,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    jsx: "automatic",
    jsxImportSource: "preact",
    legalComments: "eof",
    metafile: true,
    logLevel: "warning",
  });
  copyFileSync(`${CONSOLE_SRC}/index.html`, `${outDir}/index.html`);
  copyFileSync(`${CONSOLE_SRC}/_headers`, `${outDir}/_headers`);
  writeFileSync(
    `${outDir}/console/config.json`,
    `${JSON.stringify({ test_wallet: opts.testWallet })}\n`,
  );
  copyDocsAssets(`${outDir}/docs/assets`);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
  const inputs = Object.keys(result.metafile.inputs)
    .filter((file) => !file.includes("node_modules/"))
    .map((file) => resolve(file));
  return { outDir, testWallet: opts.testWallet, bytes, inputs, ms: Date.now() - started };
}

/** Swagger UI (swagger-ui-dist, pinned in package.json) and its starter, for /docs. */
function copyDocsAssets(dir: string) {
  mkdirSync(dir, { recursive: true });
  const swagger = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
    copyFileSync(`${swagger}/${file}`, `${dir}/${file}`);
  }
  copyFileSync(`${CONSOLE_SRC}/docs/docs.js`, `${dir}/docs.js`);
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const production = process.argv.includes("--production");
  buildConsole(
    production
      ? { testWallet: false, outDir: CONSOLE_DIST_PRODUCTION }
      : { testWallet: true, outDir: CONSOLE_DIST },
  ).then(
    (b) =>
      console.log(
        `[console] built ${b.outDir} in ${b.ms} ms (${(b.bytes / 1024).toFixed(0)} KiB, test wallet ${b.testWallet ? "on" : "off"})`,
      ),
    (err: unknown) => {
      console.error("[console] build failed:", err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
