/**
 * The Worker's bindings and variables, and their parsed form (Config). Nearly every folder
 * reads it, so it imports nothing of worker/ above it: only the Meter class behind METER
 * (meter/, which imports no configuration). The jobs queue is declared without its message
 * type, which its one producer gives (jobs/submit.ts).
 */
import { z } from "zod";
import type { Meter } from "./meter/meter-object";

/** Bindings and variables of the Worker (wrangler.toml [vars], secrets, bindings). */
export interface Env {
  DATABASE_URL?: string;
  /**
   * How the Worker reaches DATABASE_URL: `websocket` (unset; Neon's endpoint, or a local
   * WebSocket proxy named by NEON_WS_PROXY) or `tcp` (Workers TCP sockets, straight to a
   * Postgres that takes plain connections: local servers, PgBouncer, Hyperdrive).
   */
  DATABASE_TRANSPORT?: string;
  /** host:port of a WebSocket-to-TCP proxy, for the `websocket` transport to a local Postgres. */
  NEON_WS_PROXY?: string;
  /**
   * `password`: send the start-up and the password together, without waiting to be asked (the
   * Neon driver's pipelined connect; it always does so on Neon's own endpoint), one round trip
   * less per connection. Only for a server that asks for a cleartext password (Neon, PgBouncer
   * with `auth_type = plain`): one that trusts the client refuses the unasked password.
   */
  DATABASE_PIPELINE_CONNECT?: string;
  /**
   * `on`: the database runs one client's statements at a time (the embedded one; npm run dev,
   * the tests and the bench set it). A store's duplicate probe is then cut into statements of
   * 10 items (memories/store.ts), so another wallet's request waits for one short statement,
   * not for a whole batch's probe.
   */
  DATABASE_SERIAL?: string;
  /**
   * A Hyperdrive binding (wrangler.toml, README "Deploy"): when present, the Worker connects to
   * its connection string over `tcp` instead of DATABASE_URL. Hyperdrive keeps pooled
   * connections near the database, so a request pays no connection set-up across the distance.
   */
  HYPERDRIVE?: { connectionString: string };
  /**
   * Wallets of at most this many memories are searched exactly and never put in the HNSW
   * graph (worker/memories/ann.ts; default and least 2000).
   */
  GRAPH_MIN?: string;
  JWT_SECRET?: string;
  AUTH_MESSAGE_PREFIX?: string;
  EMBEDDER?: string;
  EMBEDDING_API_URL?: string;
  EMBEDDING_API_KEY?: string;
  EMBEDDING_MODEL?: string;
  /** rules | workers-ai | openai (worker/llm); unset: rules. */
  LLM_PROVIDER?: string;
  LLM_API_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
  AI?: Ai;
  /** on | off; unset: on when the METER binding exists (see middleware/metering.ts). */
  METERING?: string;
  /**
   * on (unset) | off: the one structured line per request (middleware/request-log.ts). npm run
   * dev sets off, since wrangler dev prints a line per request of its own.
   */
  REQUEST_LOG?: string;
  /**
   * The most free-allowance calls the wallets calling from one client IP may take a day
   * (middleware/charge.ts); unset: no cap. Wallets cost nothing to make, so without it one
   * client can claim every new wallet's 100 free calls.
   */
  FREE_CALLS_PER_IP_PER_DAY?: string;
  /** Rate limits and the free allowance (meter/meter-object.ts). */
  METER?: DurableObjectNamespace<Meter>;
  /**
   * Producer of the jobs queue (`async: true`, worker/jobs); without it async jobs run in the
   * request's invocation after the response, without retries (jobs/submit.ts, which sends
   * a jobs/message.ts JobMessage).
   */
  JOBS_QUEUE?: Queue;
  /**
   * Producer of the webhooks queue (worker/webhooks, docs/webhooks.md): one message per event
   * and webhook. Without it deliveries are made in-process after the response, one attempt.
   */
  WEBHOOKS_QUEUE?: Queue;
  /**
   * `on`: webhooks may target http:// and loopback addresses (localhost, 127.0.0.0/8, ::1).
   * npm run dev and the tests set it; never in production (docs/webhooks.md, "Safety").
   */
  WEBHOOKS_ALLOW_LOCAL?: string;
  /** DNS-over-HTTPS JSON endpoint webhook hosts are resolved with; default Cloudflare's. */
  WEBHOOKS_DNS_URL?: string;
  /** x402 payments (see payment/settings.ts): CAIP-2 network; unset: Base (eip155:8453). */
  X402_NETWORK?: string;
  /** The ERC-20 (EIP-3009) asset prices are paid in; default the network's USDC. */
  X402_ASSET?: string;
  /** EIP-712 domain name and version of the asset; default the network's USDC's. */
  X402_ASSET_NAME?: string;
  X402_ASSET_VERSION?: string;
  /** Address payments go to; unset means nothing can be paid (see payment/settings.ts). */
  X402_PAY_TO?: string;
  /** A remote facilitator (production)... */
  X402_FACILITATOR_URL?: string;
  /** ...or the in-process one: an RPC endpoint of the network and its key (a secret). */
  X402_RPC_URL?: string;
  X402_FACILITATOR_KEY?: string;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** An optional whole-number variable of at least `min`. */
const wholeNumber = (name: string, min: number, tooSmall: string) =>
  z.coerce
    .number({ message: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, tooSmall)
    .optional();

const configSchema = z.object({
  DATABASE_URL: z.string().min(1, "DATABASE_URL is not set"),
  DATABASE_TRANSPORT: z.enum(["websocket", "tcp"]).optional(),
  NEON_WS_PROXY: z.string().min(1).optional(),
  DATABASE_PIPELINE_CONNECT: z.enum(["password", "off"]).optional(),
  DATABASE_SERIAL: z.enum(["on", "off"]).optional(),
  // At least ann.ts's EXACT_SCAN_MAX: recall scores every memory of a smaller scope.
  GRAPH_MIN: wholeNumber("GRAPH_MIN", 2000, "GRAPH_MIN must be at least 2000"),
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be set to at least 32 characters"),
  AUTH_MESSAGE_PREFIX: z.string().min(1).default("service-auth"),
  EMBEDDER: z.enum(["local", "workers-ai", "openai"]).default("local"),
  EMBEDDING_API_URL: z.string().url().optional(),
  EMBEDDING_API_KEY: z.string().optional(),
  EMBEDDING_MODEL: z.string().min(1).optional(),
  // Optional rather than defaulted, so Config literals (tests) need not name it: unset = rules.
  LLM_PROVIDER: z.enum(["rules", "workers-ai", "openai"]).optional(),
  LLM_API_URL: z.string().url().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).optional(),
  METERING: z.enum(["on", "off"]).optional(),
  REQUEST_LOG: z.enum(["on", "off"]).optional(),
  FREE_CALLS_PER_IP_PER_DAY: wholeNumber(
    "FREE_CALLS_PER_IP_PER_DAY",
    1,
    "FREE_CALLS_PER_IP_PER_DAY must be at least 1 (unset it for no cap)",
  ),
  WEBHOOKS_ALLOW_LOCAL: z.enum(["on", "off"]).optional(),
  WEBHOOKS_DNS_URL: z.string().url().optional(),
  X402_NETWORK: z
    .string()
    .regex(/^eip155:[1-9]\d*$/, "must be a CAIP-2 EVM network id such as eip155:8453")
    .optional(),
  X402_ASSET: z.string().regex(EVM_ADDRESS, "must be a 0x address").optional(),
  X402_ASSET_NAME: z.string().min(1).optional(),
  X402_ASSET_VERSION: z.string().min(1).optional(),
  X402_PAY_TO: z.string().regex(EVM_ADDRESS, "must be a 0x address").optional(),
  X402_FACILITATOR_URL: z.string().url().optional(),
  X402_RPC_URL: z.string().url().optional(),
  X402_FACILITATOR_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
    .optional(),
});

export type Config = z.infer<typeof configSchema>;

/** Every variable the Worker reads, for tools that pass them on (local/dev.ts). */
export const CONFIG_KEYS = configSchema.keyof().options;

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Parses the Worker's environment once per request; empty strings count as unset. */
export function parseConfig(env: Env): ConfigResult {
  const raw: Record<string, unknown> = Object.fromEntries(
    Object.entries(env).filter(([, v]) => typeof v === "string" && v !== ""),
  );
  if (env.HYPERDRIVE?.connectionString) {
    raw.DATABASE_URL = env.HYPERDRIVE.connectionString;
    raw.DATABASE_TRANSPORT = "tcp";
  }
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
  };
}
