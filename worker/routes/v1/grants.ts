/** Grants of a namespace to another wallet (docs/sharing.md): free, the owner's own. */
import { z } from "@hono/zod-openapi";
import { namespace } from "../../memories/fields";
import { domain } from "../../middleware/app-env";
import { grantAccess, listGrants, receivedGrants, revokeGrant } from "../../sharing/grants";
import { json, operation } from "../operation";
import { ERRORS } from "../schemas/error";
import { Grant, GrantInput, GrantKey, GrantList } from "../schemas/grant";

export const grantOp = operation(
  {
    method: "post",
    path: "/v1/grants",
    operationId: "grantNamespace",
    tags: ["sharing"],
    summary: "Grant another wallet read or write on one of your namespaces (or change it)",
    auth: "wallet",
    request: { body: json(GrantInput, "The grantee, the namespace and the permission") },
    responses: {
      200: json(Grant, "The grant existed; its permission is now this one"),
      201: json(Grant, "Granted"),
    },
  },
  async (c) => {
    const { grant, created } = await grantAccess(domain(c), c.req.valid("json"));
    return created ? c.json(grant, 201) : c.json(grant, 200);
  },
);

export const listGrantsOp = operation(
  {
    method: "get",
    path: "/v1/grants",
    operationId: "listGrants",
    tags: ["sharing"],
    summary: "The grants you gave, of one namespace or all",
    auth: "wallet",
    request: { query: z.object({ namespace: namespace.optional() }) },
    responses: { 200: json(GrantList, "By namespace, then grantee") },
  },
  async (c) => c.json({ grants: await listGrants(domain(c), c.req.valid("query").namespace) }, 200),
);

export const revokeGrantOp = operation(
  {
    method: "delete",
    path: "/v1/grants",
    operationId: "revokeGrant",
    tags: ["sharing"],
    summary: "Take a grant back; it holds from the grantee's next request",
    auth: "wallet",
    request: { query: GrantKey },
    responses: {
      200: json(
        z.object({ revoked: z.literal(true), grant: Grant }),
        "Revoked: the grant as it was",
      ),
      404: ERRORS[404],
    },
  },
  async (c) => {
    const { grantee, namespace: ns } = c.req.valid("query");
    return c.json(
      { revoked: true as const, grant: await revokeGrant(domain(c), grantee, ns) },
      200,
    );
  },
);

export const receivedGrantsOp = operation(
  {
    method: "get",
    path: "/v1/grants/received",
    operationId: "receivedGrants",
    tags: ["sharing"],
    summary:
      "The namespaces other wallets shared with you; name the owner with ?owner= to use them",
    auth: "wallet",
    responses: { 200: json(GrantList, "By owner, then namespace") },
  },
  async (c) => c.json({ grants: await receivedGrants(domain(c)) }, 200),
);
