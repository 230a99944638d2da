import type { Hono } from "hono";
import { z } from "zod";
import { issueSession } from "../auth/session";
import { verifyWalletSignature } from "../auth/wallet";
import type { AppEnv } from "../context";
import { ApiError } from "../errors";
import { valid } from "../lib/validate";

const sessionInput = z.object({
  address: z.string().min(1),
  timestamp: z.number().int(),
  signature: z.string().min(1),
});

export function authRoutes(app: Hono<AppEnv>) {
  app.post("/auth/session", valid("json", sessionInput), async (c) => {
    const { address, timestamp, signature } = c.req.valid("json");
    const { config } = c.get("services");
    const check = await verifyWalletSignature(
      address,
      timestamp,
      signature,
      config.AUTH_MESSAGE_PREFIX,
    );
    if (!check.ok) throw new ApiError("UNAUTHORIZED", check.reason);
    return c.json(await issueSession(check.wallet, config.JWT_SECRET));
  });
}
