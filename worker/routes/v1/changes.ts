/** The change feed (docs/changes.md): free, the owner's own or a grantee's through ?owner=. */
import { z } from "@hono/zod-openapi";
import { ChangeEvent, EVENT_KINDS } from "../../changes/event";
import { EVENT_CAP, RETENTION_DAYS, readChanges } from "../../changes/feed";
import { namespace } from "../../memories/fields";
import { domain } from "../../middleware/app-env";
import { json, operation } from "../operation";
import { ERRORS } from "../schemas/error";

export const MAX_WAIT_SECONDS = 25;
const MAX_LIMIT = 1000;

const ChangesQuery = z.object({
  since: z
    .string()
    .regex(
      /^(now|\d{1,15})$/,
      "a cursor from this feed (`next_cursor`, an event's `cursor`) or `now`",
    )
    .optional()
    .openapi({
      description:
        "Events after this cursor. `now`: only events from now on. Absent: from the oldest event kept.",
    }),
  namespace: namespace.optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(100)
    .transform((n) => Math.min(n, MAX_LIMIT))
    .openapi({ description: `1-${MAX_LIMIT} (above: ${MAX_LIMIT}), default 100` }),
  wait: z.coerce
    .number()
    .min(0)
    .default(0)
    .transform((n) => Math.min(n, MAX_WAIT_SECONDS))
    .openapi({
      description: `Seconds (up to ${MAX_WAIT_SECONDS}; more is ${MAX_WAIT_SECONDS}) to hold the request while no event follows the cursor: it answers as soon as one does (long poll).`,
    }),
  kinds: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined) return undefined;
      const list = s
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean);
      const bad = list.filter((k) => !(EVENT_KINDS as readonly string[]).includes(k));
      if (bad.length > 0) {
        ctx.addIssue({ code: "custom", message: `unknown event kind: ${bad.join(", ")}` });
        return z.NEVER;
      }
      return list;
    })
    .openapi({ description: "Comma-separated event kinds to answer; all when absent" }),
  include_content: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true")
    .openapi({ description: "`true`: each memory event carries the memory's content" }),
});

export const changesOp = operation(
  {
    method: "get",
    path: "/v1/changes",
    operationId: "listChanges",
    shared: "read",
    tags: ["changes"],
    summary: "What changed, in commit order, after a cursor; waits for the next change with `wait`",
    description: `Every store, merge, PATCH, pin, delete, expiry, relation, replacement and grant is an event, numbered in commit order: no event is skipped or repeated across pages, whatever commits at the same time. Follow \`next_cursor\`; \`has_more\` says a full page followed. Events are kept ${RETENTION_DAYS} days (at most ${EVENT_CAP} a wallet): an older cursor is a 410. With \`owner\`, a grantee reads the events of the namespaces granted to it only.`,
    auth: "wallet",
    request: { query: ChangesQuery },
    responses: {
      200: json(
        z.object({
          changes: z.array(ChangeEvent),
          next_cursor: z.string(),
          has_more: z.boolean(),
        }),
        "The events after the cursor, oldest first",
      ),
      410: ERRORS[410],
    },
  },
  async (c) => {
    const q = c.req.valid("query");
    const page = await readChanges(domain(c), {
      since: q.since,
      namespace: q.namespace,
      limit: q.limit,
      wait: q.wait,
      includeContent: q.include_content,
      kinds: q.kinds,
    });
    return c.json(page, 200);
  },
);
