/**
 * A PgBouncer of the bench's own (transaction mode, like Neon's pooled endpoint and
 * Hyperdrive), its config in a temp dir, on a free loopback port, in front of one loopback
 * PostgreSQL port. Clients log in with a cleartext password, as they do at Neon's endpoint,
 * so a connection's start-up costs the exchanges it costs there.
 * Needs /usr/sbin/pgbouncer (`POOLER=1 bash scripts/ci-postgres.sh` installs it).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const PGBOUNCER = "/usr/sbin/pgbouncer";
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

export interface PgBouncer {
  port: number;
  stop(): Promise<void>;
}

export interface PgBouncerLogin {
  user: string;
  password: string;
}

export async function startPgBouncer(
  targetPort: number,
  login: PgBouncerLogin,
): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER)) {
    throw new Error(`${PGBOUNCER} not found: POOLER=1 bash scripts/ci-postgres.sh installs it`);
  }
  const dir = mkdtempSync(join(tmpdir(), "distance-pgbouncer-"));
  const port = await freePort();
  const owner = runAs();
  writeFileSync(join(dir, "pgbouncer.ini"), config(dir, port, targetPort));
  writeFileSync(join(dir, "users.txt"), `${quoted(login.user)} ${quoted(login.password)}\n`);
  if (owner)
    for (const f of ["", "pgbouncer.ini", "users.txt"])
      chownSync(join(dir, f), owner.uid, owner.gid);
  // In the foreground, so that the child's pid is PgBouncer's and stop() reaches it.
  const child = spawn(PGBOUNCER, [join(dir, "pgbouncer.ini")], {
    stdio: "ignore",
    ...(owner ?? {}),
  });
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitListening(port, child, dir);
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, stop };
}

function config(dir: string, port: number, targetPort: number): string {
  return `[databases]
* = host=127.0.0.1 port=${targetPort}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = plain
auth_file = ${dir}/users.txt
pool_mode = transaction
max_client_conn = 200
default_pool_size = 20
ignore_startup_parameters = extra_float_digits,options
logfile = ${dir}/pgbouncer.log
`;
}

const quoted = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** PgBouncer refuses to run as root: as root, it runs as the postgres user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
  return { uid: id("-u"), gid: id("-g") };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no free port");
  return address.port;
}

async function waitListening(port: number, child: ChildProcess, dir: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await accepts(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  const logFile = join(dir, "pgbouncer.log");
  const tail = existsSync(logFile)
    ? readFileSync(logFile, "utf8").trim().split("\n").slice(-5)
    : [];
  throw new Error(`PgBouncer did not start on 127.0.0.1:${port}: ${tail.join(" / ") || "no log"}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** SIGTERM: PgBouncer's immediate shutdown (SIGINT would wait for its clients). */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS))]);
}
