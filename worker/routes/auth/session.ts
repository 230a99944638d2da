import { z } from "@hono/zod-openapi";
import { issueSession } from "../../auth/session";
import { verifyWalletSignature } from "../../auth/wallet";
import { ApiError } from "../../errors";
import { json, operation } from "../operation";
import { ERRORS } from "../schemas/error";
import { Timestamp } from "../schemas/memory";

const sessionInput = z.object({
  address: z.string().min(1),
  timestamp: z.number().int(),
  signature: z.string().min(1),
});

export const sessionOp = operation(
  {
    method: "post",
    path: "/auth/session",
    operationId: "createSession",
    tags: ["auth"],
    summary: "Trade a wallet signature of `{prefix}:{timestamp}` for a 7-day bearer token",
    auth: "public",
    request: { body: { content: { "application/json": { schema: sessionInput } } } },
    responses: {
      200: json(
        z.object({ token: z.string(), wallet: z.string(), expires_at: Timestamp }),
        "The session token",
      ),
      401: ERRORS[401],
    },
  },
  async (c) => {
    const { address, timestamp, signature } = c.req.valid("json");
    const { config } = c.get("services");
    const check = await verifyWalletSignature(
      address,
      timestamp,
      signature,
      config.AUTH_MESSAGE_PREFIX,
    );
    if (!check.ok) throw new ApiError("UNAUTHORIZED", check.reason);
    return c.json(await issueSession(check.wallet, config.JWT_SECRET), 200);
  },
);
