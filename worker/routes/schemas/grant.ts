import { z } from "@hono/zod-openapi";
import { PERMISSIONS } from "../../../schema/tables";
import { namespace } from "../../memories/fields";
import { WalletAddress } from "../../sharing/owner-param";
import { Timestamp } from "./memory";

export const Permission = z.enum(PERMISSIONS).openapi({
  description:
    "`read`: recall, search, list, get and the other reads; `write`: also store, PATCH and delete",
});

export const Grant = z
  .object({
    owner: WalletAddress,
    grantee: WalletAddress,
    namespace: z.string(),
    permission: Permission,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Grant");

export const GrantInput = z.object({
  grantee: WalletAddress,
  namespace,
  permission: Permission,
});

/** Which grant to revoke: the grantee and the namespace, as query parameters. */
export const GrantKey = z.object({ grantee: WalletAddress, namespace });

export const GrantList = z.object({ grants: z.array(Grant) });
