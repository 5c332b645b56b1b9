import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { GatewayContext } from "../context";
import { isPgError, withTransaction } from "../db";
import { sendEmpty, sendJson } from "../http";
import { optionalObject, optionalString, readAuthBody } from "./body";
import { badRequest, forbidden, unprocessable } from "./errors";
import { requireUser, sessionResponse } from "./identity";
import { createSession, logout, refreshGrant, type LogoutScope, type SessionRow } from "./sessions";
import {
  checkPasswordStrength,
  confirmEmailChange,
  confirmSignup,
  setConfirmationToken,
  setEmailChange,
  type UserRow,
  findUserByEmail,
  hashPassword,
  insertUser,
  isBanned,
  mergeMetadata,
  normaliseEmail,
  passwordMatches,
  touchLastSignIn,
  updateUser,
  userJson,
} from "./users";

export const INVALID_EMAIL = "Unable to validate email address: invalid format";
export const DUPLICATE_EMAIL = "A user with this email address has already been registered";

/** 23505 on auth.users' e-mail index: two requests raced for one address. */
export function isDuplicateEmail(e: unknown): boolean {
  return isPgError(e) && e.code === "23505" && (e.constraint ?? "").includes("email");
}

function refusePhone(body: Record<string, unknown>): void {
  if (body.phone !== undefined && body.phone !== null && body.phone !== "") {
    throw badRequest("phone_provider_disabled", "Phone signups and logins are disabled (the local stack has no SMS provider)");
  }
}

/**
 * POST /signup, counted per client address first (./limits.ts). With AUTH_AUTOCONFIRM on (the local default, like
 * `supabase start`) the address is confirmed at once and a session answers; off, the user is stored unconfirmed, a
 * confirmation link goes by mail and the answer is the user without a session (GoTrue's shape).
 */
export async function signup(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  await ctx.signupLimiter.hit(req);
  const body = await readAuthBody(req);
  refusePhone(body);
  const email = normaliseEmail(body.email);
  if (!email) throw badRequest("validation_failed", INVALID_EMAIL);
  const password = optionalString(body, "password");
  if (!password) throw unprocessable("validation_failed", "Signup requires a valid password");
  checkPasswordStrength(password);
  const data = optionalObject(body, "data") ?? {};
  if (await findUserByEmail(ctx.pool, email)) throw unprocessable("user_already_exists", "User already registered");
  const passwordHash = await hashPassword(password);
  try {
    const out = await withTransaction(ctx.pool, async (tx) => {
      const user = await insertUser(tx, {
        email,
        passwordHash,
        userMetadata: data,
        appMetadata: { provider: "email", providers: ["email"] },
        confirmed: ctx.autoconfirm,
        signedIn: ctx.autoconfirm,
      });
      if (!ctx.autoconfirm) {
        const token = newVerifyToken();
        const pending = await setConfirmationToken(tx, user.id, token);
        await ctx.mailer.send(confirmationMail(ctx, email, "signup", token));
        return userJson(pending);
      }
      const { session, refreshToken } = await createSession(tx, user.id);
      return sessionResponse(ctx, user, session, refreshToken);
    });
    sendJson(res, 200, out);
  } catch (e) {
    if (isDuplicateEmail(e)) throw unprocessable("user_already_exists", "User already registered");
    throw e;
  }
}

/** POST /token?grant_type=password|refresh_token. */
export async function token(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const grantType = url.searchParams.get("grant_type");
  const body = await readAuthBody(req);
  if (grantType === "password") return passwordGrant(ctx, body, res);
  if (grantType === "refresh_token") {
    const presented = optionalString(body, "refresh_token");
    if (!presented) throw badRequest("validation_failed", "refresh_token required");
    const { user, session, refreshToken } = await refreshGrant(ctx.pool, presented, ctx.refreshTokenReuseIntervalSeconds, {
      timeboxSeconds: ctx.sessionTimeboxSeconds,
      inactivityTimeoutSeconds: ctx.sessionInactivityTimeoutSeconds,
    });
    sendJson(res, 200, await sessionResponse(ctx, user, session, refreshToken));
    return;
  }
  if (grantType === "pkce" || grantType === "id_token") {
    throw badRequest("validation_failed", `grant_type ${grantType} is not supported by the local gateway`);
  }
  throw badRequest("validation_failed", "unsupported_grant_type");
}

async function passwordGrant(ctx: GatewayContext, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
  const rawEmail = optionalString(body, "email");
  const rawPhone = optionalString(body, "phone");
  if (rawEmail && rawPhone) {
    throw unprocessable("validation_failed", "Only an email address or phone number should be provided on login.");
  }
  refusePhone(body);
  if (!rawEmail) throw badRequest("validation_failed", "missing email or phone");
  const password = optionalString(body, "password") ?? "";
  const email = normaliseEmail(rawEmail);
  const user = email ? await findUserByEmail(ctx.pool, email) : null;
  // Always one bcrypt comparison, so timing does not tell a known e-mail from an unknown one.
  const ok = await passwordMatches(user, password);
  if (!user || !ok) throw badRequest("invalid_credentials", "Invalid login credentials");
  if (isBanned(user)) throw badRequest("user_banned", "User is banned");
  if (!user.email_confirmed_at) throw badRequest("email_not_confirmed", "Email not confirmed");
  const out = await withTransaction(ctx.pool, async (tx) => {
    const signedIn = await touchLastSignIn(tx, user.id);
    const { session, refreshToken } = await createSession(tx, user.id);
    return sessionResponse(ctx, signedIn, session, refreshToken);
  });
  sendJson(res, 200, out);
}

/** GET /user. */
export async function getUser(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { user } = await requireUser(ctx, req);
  sendJson(res, 200, userJson(user));
}

/**
 * PUT /user: user_metadata (`data`, merged); password (other sessions are signed out, as GoTrue does); email.
 *
 * A password change by token alone is what Supabase's "Secure password change" refuses: it needs a session started
 * within AUTH_PASSWORD_CHANGE_RECENT_SIGNIN_SECONDS (GoTrue: 24 h), or else the current password in
 * `current_password`; otherwise 400 reauthentication_needed (a wrong one: 400 current_password_mismatch).
 * A new address is not applied: it is kept as pending (email_change) and a confirmation link is mailed to it; the
 * change happens when the link is opened (GET /verify?type=email_change).
 */
export async function putUser(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { user, session } = await requireUser(ctx, req);
  const body = await readAuthBody(req);
  refusePhone(body);
  const data = optionalObject(body, "data");
  const password = optionalString(body, "password");
  const currentPassword = optionalString(body, "current_password");
  const rawEmail = optionalString(body, "email");
  let email: string | undefined;
  if (rawEmail !== undefined && rawEmail !== "") {
    const normalised = normaliseEmail(rawEmail);
    if (!normalised) throw badRequest("validation_failed", INVALID_EMAIL);
    if (normalised !== user.email) {
      const other = await findUserByEmail(ctx.pool, normalised);
      if (other && other.id !== user.id) throw unprocessable("email_exists", DUPLICATE_EMAIL);
      email = normalised;
    }
  }
  let passwordHash: string | undefined;
  if (password !== undefined) {
    checkPasswordStrength(password);
    await requireReauthentication(ctx, user, session, currentPassword);
    if (await passwordMatches(user, password)) {
      throw unprocessable("same_password", "New password should be different from the old password.");
    }
    passwordHash = await hashPassword(password);
  }
  try {
    const updated = await withTransaction(ctx.pool, async (tx) => {
      let row = await updateUser(tx, user.id, {
        passwordHash,
        userMetadata: data ? mergeMetadata(user.raw_user_meta_data, data) : undefined,
      });
      if (passwordHash) await logout(tx, "others", user.id, session?.id ?? null);
      if (email !== undefined) {
        const token = newVerifyToken();
        row = await setEmailChange(tx, user.id, email, token);
        await ctx.mailer.send(confirmationMail(ctx, email, "email_change", token));
      }
      return row;
    });
    sendJson(res, 200, userJson(updated));
  } catch (e) {
    if (isDuplicateEmail(e)) throw unprocessable("email_exists", DUPLICATE_EMAIL);
    throw e;
  }
}

/** Supabase's secure password change: a recent sign-in, or the current password. */
async function requireReauthentication(
  ctx: GatewayContext,
  user: UserRow,
  session: SessionRow | null,
  currentPassword: string | undefined,
): Promise<void> {
  const recent = session !== null && Date.now() - session.created_at.getTime() <= ctx.passwordChangeRecentSignInSeconds * 1000;
  if (currentPassword !== undefined) {
    if (!(await passwordMatches(user, currentPassword))) throw badRequest("current_password_mismatch", "Current password is incorrect.");
    return;
  }
  if (!recent) throw badRequest("reauthentication_needed", "Password update requires reauthentication.");
}

/**
 * GET /verify?type=signup|email_change&token=…: the link of a confirmation mail. Confirms the address (sign-up) or
 * applies the pending one (change), once; a used or unknown token answers 403 otp_expired, as GoTrue does.
 */
export async function verify(ctx: GatewayContext, res: ServerResponse, url: URL): Promise<void> {
  const type = url.searchParams.get("type");
  const token = url.searchParams.get("token") ?? "";
  if (type !== "signup" && type !== "email_change") throw badRequest("validation_failed", "Verify requires a verification type");
  if (!token) throw badRequest("validation_failed", "Verify requires a token or a token hash");
  let confirmed: boolean;
  try {
    confirmed = await withTransaction(ctx.pool, (tx) => (type === "signup" ? confirmSignup(tx, token) : confirmEmailChange(tx, token)));
  } catch (e) {
    if (isDuplicateEmail(e)) throw unprocessable("email_exists", DUPLICATE_EMAIL);
    throw e;
  }
  if (!confirmed) throw forbidden("otp_expired", "Email link is invalid or has expired");
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end("<!doctype html><title>Confirmed</title><p>Your e-mail address is confirmed. You can close this page.</p>");
}

function newVerifyToken(): string {
  return randomBytes(24).toString("base64url");
}

function confirmationMail(ctx: GatewayContext, to: string, type: "signup" | "email_change", token: string) {
  const link = `${ctx.issuer}/verify?type=${type}&token=${encodeURIComponent(token)}`;
  return type === "signup"
    ? { to, subject: "Confirm your signup", text: `Follow this link to confirm your e-mail address:\n\n${link}\n` }
    : { to, subject: "Confirm e-mail change", text: `Follow this link to confirm the change of your e-mail address to ${to}:\n\n${link}\n` };
}

/** POST /logout?scope=global|local|others → 204. */
export async function postLogout(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const scopeParam = url.searchParams.get("scope") ?? "global";
  if (!["global", "local", "others", ""].includes(scopeParam)) {
    throw badRequest("validation_failed", `Unsupported logout scope "${scopeParam}"`);
  }
  const scope = (scopeParam || "global") as LogoutScope;
  const { user, session } = await requireUser(ctx, req);
  await logout(ctx.pool, scope, user.id, session?.id ?? null);
  sendEmpty(res, 204);
}

