/**
 * The browser tests need Debian's chromium (playwright-core downloads no browser). On a
 * machine without it, `npm test` installs it once with apt-get when it can (root, Debian), so
 * the README's `npm test` is all a fresh clone needs; elsewhere it stops with what to do.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export default function setup(): void {
  const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(path)) return;
  const canInstall =
    !process.env.CHROMIUM_PATH && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
  if (!canInstall) {
    throw new Error(
      `the console's browser tests need chromium at ${path}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  console.log(
    "[browser] installing Debian's chromium for the console tests (once, about a minute)",
  );
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--reinstall", "chromium"], {
    stdio: "inherit",
    env,
  });
  if (!existsSync(path)) throw new Error(`apt-get installed chromium, but not at ${path}`);
}
