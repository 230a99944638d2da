import type { Context } from "hono";
import type { Db } from "./db/client";
import type { Embedder } from "./embed/embedder";
import type { Config, Env } from "./env";
import type { Timings } from "./lib/timing";
import type { LlmProvider } from "./llm/provider";
import type { FreeGrant, Metering } from "./meter/meter";
import type { PaidRoutes } from "./payment/paid-route";
import type { OperationMeta } from "./routes/meta";

/**
 * What every domain function receives: the database, the embedder, the language model and
 * the caller.
 * Routes build it from the Hono context with `domain(c)`; tests can build it directly.
 */
export interface Services {
  config: Config;
  /** Opened on first use and closed after the response (see services.ts). */
  readonly db: Db;
  /**
   * Opens the database connection early, to overlap its round trips with other work (the
   * query's embedding, a Meter call); resolves once it is ready or has failed. Await it
   * before the first query, or that query opens a second connection.
   */
  connect(): Promise<void>;
  readonly embedder: Embedder;
  /** The language-model provider of LLM_PROVIDER, built on first use. */
  readonly llm: LlmProvider;
  /**
   * Work to do once this unit of work is done (after the response; before the next queue
   * batch), with the services' own database, not a transaction that has ended by then. One
   * task per key: a request that asks twice gets it once. Failures are logged.
   */
  afterwards(key: string, task: (db: Db) => Promise<unknown>): void;
}

/**
 * What the request proved about its sender, before any route decides whether that is enough:
 * a verified wallet, a proof that failed (with the 401 reason), or no proof at all.
 */
export type Identification =
  | { status: "wallet"; wallet: string }
  | { status: "invalid"; reason: string }
  | { status: "anonymous" };

export interface Caller {
  wallet: string;
  userId: string;
}

export interface DomainContext extends Services, Caller {
  timings?: Timings;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    timings: Timings;
    services: Services;
    identity: Identification;
    metering: Metering;
    caller: Caller;
    /** The declared operation the method and path match; undefined for an unknown route. */
    operation: OperationMeta | undefined;
    /** The contract's paid routes (worker/routes), for 402 answers and the x402 listing. */
    paidRoutes: PaidRoutes;
    /** The free call the rate-limit call took for a paid request (middleware/meter.ts). */
    freeGrant: FreeGrant | undefined;
    /** Whether freeAllowance served that call (else rateLimit gives it back). */
    freeServed: boolean | undefined;
  };
};

export type AppContext = Context<AppEnv>;

/** The domain context of a caller over a set of services (a request's or a queue batch's). */
export function domainContext(
  services: Services,
  caller: Caller,
  timings?: DomainContext["timings"],
): DomainContext {
  return {
    config: services.config,
    get db() {
      return services.db;
    },
    get embedder() {
      return services.embedder;
    },
    get llm() {
      return services.llm;
    },
    connect: () => services.connect(),
    afterwards: (key, task) => services.afterwards(key, task),
    wallet: caller.wallet,
    userId: caller.userId,
    timings,
  };
}

/** The domain context of an authenticated request. */
export function domain(c: AppContext): DomainContext {
  return domainContext(c.get("services"), c.get("caller"), c.get("timings"));
}
