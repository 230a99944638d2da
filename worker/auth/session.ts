import { jwtVerify, SignJWT } from "jose";

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
const ISSUER = "memory-service";

export interface Session {
  token: string;
  wallet: string;
  expires_at: string;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function issueSession(wallet: string, secret: string): Promise<Session> {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + SESSION_LIFETIME_SECONDS;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(wallet)
    .setIssuer(ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .sign(key(secret));
  return { token, wallet, expires_at: new Date(exp * 1000).toISOString() };
}

/** The wallet a session token was issued to, or null when it is tampered with or expired. */
export async function verifySession(token: string, secret: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      algorithms: ["HS256"],
    });
    return typeof payload.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}
