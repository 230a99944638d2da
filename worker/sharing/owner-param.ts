import { z } from "@hono/zod-openapi";

/** A wallet address, lower-cased: the identity key everywhere (auth/wallet.ts). */
export const WalletAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a wallet address (0x and 40 hex digits)")
  .transform((s) => s.toLowerCase())
  .openapi({ example: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" });

/** The query parameter by which a grantee names the owner whose memories it works on. */
export const OWNER_PARAM = "owner";

/** `?owner=` of every operation a grantee may call (routes/operation.ts adds it to their query). */
export const OwnerQuery = z.object({
  [OWNER_PARAM]: WalletAddress.optional().openapi({
    param: { name: OWNER_PARAM, in: "query" },
    description:
      "Work on this wallet's memories, in the namespaces it granted you (docs/sharing.md). Absent or your own wallet: your own memories.",
  }),
});
