import { z } from "@hono/zod-openapi";
import { issueSession } from "../../auth/session";
import { AUTH_TOLERANCE_SECONDS, verifyWalletSignature } from "../../auth/wallet";
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
    // One token per signature: the signed timestamp is taken in the wallet's Meter for as long
    // as it is accepted, so a copied signature buys no second 7-day token. (With metering off
    // nothing can be kept, and each exchange is served.)
    const now = Math.floor(Date.now() / 1000);
    const claim = await c
      .get("metering")
      .wallet(check.wallet)
      .claimSignInNonce(`session:${timestamp}`, timestamp + AUTH_TOLERANCE_SECONDS + 1, now);
    if (claim === "used") {
      throw new ApiError(
        "UNAUTHORIZED",
        "This signature was already exchanged for a session token: sign a new timestamp",
      );
    }
    return c.json(await issueSession(check.wallet, config.JWT_SECRET), 200);
  },
);
