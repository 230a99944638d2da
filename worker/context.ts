import type { Permission } from "../schema/tables";
import type { Db } from "./db/client";
import type { Embedder } from "./embed/embedder";
import type { Config } from "./env";
import type { LlmProvider } from "./language-model";
import type { Timings } from "./lib/timing";

/**
 * What every domain function receives: the database, the embedder, the language model and
 * the caller.
 * Routes build it from the Hono context with `domain(c)` (middleware/app-env.ts); tests can
 * build it directly.
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

/** A grant being used: the caller (the grantee) and what the operation needs of it. */
export interface GrantUse {
  /** The caller's wallet, lower-case, as memory_grants.grantee holds it. */
  grantee: string;
  need: Permission;
}

/**
 * Who calls, and whose memories the call works on. `wallet` is the caller's (it pays, it is
 * rate-limited, it is the writer of what it stores); `userId` is the owner of the memories:
 * the caller's own user, or, with `grant`, the owner who shared a namespace with the caller
 * (sharing/scope.ts). Every memory statement is scoped by `userId` and `grant` together.
 */
export interface Caller {
  wallet: string;
  userId: string;
  grant?: GrantUse;
}

export interface DomainContext extends Services, Caller {
  timings?: Timings;
}

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
    ...(caller.grant ? { grant: caller.grant } : {}),
    timings,
  };
}
