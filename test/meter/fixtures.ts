/** What the Meter tests share: a fixed minute, and the Durable Objects they talk to. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Wallet } from "../helpers";

/** A minute boundary, so window arithmetic in the unit tests is easy to read. */
export const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
export const T0_SECONDS = T0 / 1000;

export const freshStub = () => env.METER.get(env.METER.idFromName(`test:${crypto.randomUUID()}`));
export const walletStub = (w: Wallet) =>
  env.METER.get(env.METER.idFromName(`wallet:${w.address.toLowerCase()}`));

export type Row = Record<string, SqlStorageValue>;
export const rows = (stub: ReturnType<typeof freshStub>, query: string) =>
  runInDurableObject(stub, (_instance, state) => state.storage.sql.exec<Row>(query).toArray());
