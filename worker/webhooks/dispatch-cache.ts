/**
 * Per-isolate memory of which owners have no webhooks, so that a write of a wallet without
 * any costs no query to find out (most wallets have none). Only "none" is remembered, and for
 * TTL_MS: a webhook registered in another isolate is found after at most that long, and the
 * minute's catch-up (dispatch.ts, catchUpAll) does not read this. A registration in this
 * isolate forgets "none" at once.
 */
import { BoundedMap } from "../lib/bounded-map";

export const TTL_MS = 15_000;

/** Owner → when it was found to have none (FORGOTTEN: it may have some). */
const none = new BoundedMap<string, number>(10_000);
const FORGOTTEN = Number.NEGATIVE_INFINITY;

/** Whether `ownerId` may have webhooks: false only while "none" is fresh. */
export function mayHaveWebhooks(ownerId: string, now = Date.now()): boolean {
  const since = none.get(ownerId);
  return since === undefined || now - since > TTL_MS;
}

/** What a dispatch found: an owner with no enabled webhook is remembered as such. */
export function rememberWebhooks(ownerId: string, has: boolean, now = Date.now()): void {
  none.set(ownerId, has ? FORGOTTEN : now);
}

/** A webhook was registered for `ownerId` in this isolate. */
export function ownerHasWebhooks(ownerId: string): void {
  none.set(ownerId, FORGOTTEN);
}
