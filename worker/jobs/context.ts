import { type DomainContext, domainContext, type Services } from "../context";
import type { Db, Tx } from "../db/client";

/**
 * The same context with every query on `tx`. Domain functions that open a transaction of
 * their own then open a savepoint inside `tx` (drizzle's nested transactions), so their
 * writes commit or roll back with the caller's.
 */
export function inTransaction(ctx: DomainContext, tx: Tx): DomainContext {
  const services: Services = {
    config: ctx.config,
    // A transaction offers the query API of the database it came from; `$client` (the pool),
    // the one member it lacks, is not used by domain code.
    db: tx as unknown as Db,
    get embedder() {
      return ctx.embedder;
    },
    get llm() {
      return ctx.llm;
    },
    // The transaction holds its connection already.
    connect: async () => {},
    afterwards: (key, task) => ctx.afterwards(key, task),
  };
  return domainContext(services, ctx, ctx.timings);
}
