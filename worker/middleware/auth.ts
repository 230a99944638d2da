import { createMiddleware } from "hono/factory";
import { verifySession } from "../auth/session";
import { verifyWalletHeader } from "../auth/wallet";
import type { AppEnv } from "../context";
import { ApiError } from "../errors";
import { ensureUser } from "../users";

/**
 * Identifies the caller by `x-wallet-auth` or `Authorization: Bearer <session token>` and
 * resolves (creating on first sight) the user row every query is scoped by.
 */
export const requireWallet = createMiddleware<AppEnv>(async (c, next) => {
  const { config, db } = c.get("services");
  const timings = c.get("timings");
  const header = c.req.header("x-wallet-auth");
  const bearer = c.req.header("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
  let wallet: string;
  if (header) {
    const check = await timings.measure("auth", () =>
      verifyWalletHeader(header, config.AUTH_MESSAGE_PREFIX),
    );
    if (!check.ok) throw new ApiError("UNAUTHORIZED", check.reason);
    wallet = check.wallet;
  } else if (bearer) {
    const subject = await verifySession(bearer.trim(), config.JWT_SECRET);
    if (!subject) throw new ApiError("UNAUTHORIZED", "Invalid or expired session token");
    wallet = subject;
  } else {
    throw new ApiError(
      "UNAUTHORIZED",
      "Authentication required: send x-wallet-auth or Authorization: Bearer <token>",
    );
  }
  const userId = await timings.measure("user", () => ensureUser(db, wallet));
  c.set("caller", { wallet, userId });
  await next();
});
