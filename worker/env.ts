import { z } from "zod";
import type { Meter } from "./meter/meter-object";

/** Bindings and variables of the Worker (wrangler.toml [vars], secrets, bindings). */
export interface Env {
  DATABASE_URL?: string;
  /** host:port of a WebSocket-to-TCP proxy; set only for a local Postgres (npm run dev, tests). */
  NEON_WS_PROXY?: string;
  JWT_SECRET?: string;
  AUTH_MESSAGE_PREFIX?: string;
  EMBEDDER?: string;
  EMBEDDING_API_URL?: string;
  EMBEDDING_API_KEY?: string;
  EMBEDDING_MODEL?: string;
  AI?: Ai;
  /** on | off; unset: on when the METER binding exists (see meter/meter.ts). */
  METERING?: string;
  /** Rate limits and the free allowance (meter/meter-object.ts). */
  METER?: DurableObjectNamespace<Meter>;
}

const configSchema = z.object({
  DATABASE_URL: z.string().min(1, "DATABASE_URL is not set"),
  NEON_WS_PROXY: z.string().min(1).optional(),
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be set to at least 32 characters"),
  AUTH_MESSAGE_PREFIX: z.string().min(1).default("service-auth"),
  EMBEDDER: z.enum(["local", "workers-ai", "openai"]).default("local"),
  EMBEDDING_API_URL: z.string().url().optional(),
  EMBEDDING_API_KEY: z.string().optional(),
  EMBEDDING_MODEL: z.string().min(1).optional(),
  METERING: z.enum(["on", "off"]).optional(),
});

export type Config = z.infer<typeof configSchema>;

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Parses the Worker's environment once per request; empty strings count as unset. */
export function parseConfig(env: Env): ConfigResult {
  const raw = Object.fromEntries(
    Object.entries(env).filter(([, v]) => typeof v === "string" && v !== ""),
  );
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
  };
}
