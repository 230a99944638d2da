/**
 * Following the change feed (GET /v1/changes, docs/changes.md) for the activity screen: first
 * the newest events kept, read page by page from the oldest; then one long poll after another
 * (`wait`), each from the last `next_cursor`, so a change shows within a moment of its commit.
 * One request is outstanding at a time, and none once the screen is left or paused: the loop
 * runs in an effect whose cleanup aborts it.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { type Api, ApiError, type ChangeEvent, type ChangePage, type EventKind } from "./api";

/** Events shown at most: the newest. */
export const SHOWN = 300;
/** Pages of the first read at most; a longer feed is followed from its end instead. */
const CATCH_UP_PAGES = 5;
const PAGE = 1000;
/** Seconds each poll waits for the next event (the API's most). */
const WAIT_SECONDS = 25;
/** A failed poll is tried again after this, or the Retry-After the API asked for. */
const RETRY_MS = 5000;

export interface FeedFilter {
  namespace: string;
  /** One kind, or "" for all. */
  kind: EventKind | "";
}

export type FeedPhase = "loading" | "live" | "paused" | "retrying";

export interface Feed {
  /** Newest first, at most SHOWN. */
  events: ChangeEvent[];
  phase: FeedPhase;
  /** The last failure, until a request succeeds again. */
  error: unknown;
  /** The feed held more than the first read takes: earlier events are not shown. */
  skipped: boolean;
}

/** The feed of the shown wallet (Api adds `owner` for a shared namespace), while `live`. */
export function useFeed(api: Api, filter: FeedFilter, live: boolean): Feed {
  const [events, setEvents] = useState<ChangeEvent[]>([]);
  const [phase, setPhase] = useState<FeedPhase>("loading");
  const [error, setError] = useState<unknown>(null);
  const [skipped, setSkipped] = useState(false);
  const key = JSON.stringify(filter);
  /** Where the feed was left, for the filter it was read with: a pause resumes there. */
  const position = useRef<{ key: string; cursor: string | null }>({ key, cursor: null });

  useEffect(() => {
    if (position.current.key !== key) {
      position.current = { key, cursor: null };
      setEvents([]);
      setSkipped(false);
    }
    if (!live) {
      setPhase("paused");
      return;
    }
    const { namespace, kind } = JSON.parse(key) as FeedFilter;
    const query = { namespace, kinds: kind, include_content: true, limit: PAGE };
    const controller = new AbortController();
    const { signal } = controller;
    const read = async (since: string | undefined, wait = 0) => {
      const answer = await api.get<ChangePage>(
        "/v1/changes",
        { ...query, since, wait },
        { signal },
      );
      // An answer that came in as the screen went away is nobody's.
      if (signal.aborted) throw new DOMException("The request was aborted", "AbortError");
      return answer;
    };
    const at = position.current;

    /** The newest SHOWN events, read from the oldest kept; returns where the feed ends. */
    const catchUp = async (): Promise<string> => {
      setPhase("loading");
      let kept: ChangeEvent[] = [];
      let since: string | undefined;
      for (let page = 0; page < CATCH_UP_PAGES; page++) {
        const answer = await read(since);
        kept = [...kept, ...answer.changes].slice(-SHOWN);
        since = answer.next_cursor;
        if (!answer.has_more) {
          setEvents(kept.reverse());
          return since;
        }
      }
      // Too many to read through: what happens from now on.
      const end = await read("now");
      setSkipped(true);
      setEvents([]);
      return end.next_cursor;
    };

    const follow = async () => {
      for (;;) {
        try {
          if (at.cursor === null) {
            at.cursor = await catchUp();
          } else {
            const answer = await read(at.cursor, WAIT_SECONDS);
            at.cursor = answer.next_cursor;
            const fresh = answer.changes.reverse();
            if (fresh.length > 0) setEvents((shown) => [...fresh, ...shown].slice(0, SHOWN));
          }
          setError(null);
          setPhase("live");
        } catch (err) {
          if (signal.aborted) return;
          if (err instanceof ApiError && err.status === 410) {
            // The cursor is older than the events kept (a long pause): read them afresh.
            at.cursor = null;
            continue;
          }
          setError(err);
          setPhase("retrying");
          const retryAfter = err instanceof ApiError ? err.retryAfter : undefined;
          await pause(retryAfter ? retryAfter * 1000 : RETRY_MS, signal);
          if (signal.aborted) return;
        }
      }
    };
    void follow();
    return () => controller.abort();
  }, [api, key, live]);

  return { events, phase, error, skipped };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
