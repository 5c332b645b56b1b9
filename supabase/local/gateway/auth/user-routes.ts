import type { IncomingMessage, ServerResponse } from "node:http";
import type { GatewayContext } from "../context";
import { isPgError, withTransaction } from "../db";
import { sendEmpty, sendJson } from "../http";
import { optionalObject, optionalString, readAuthBody } from "./body";
import { badRequest, unprocessable } from "./errors";
import { requireUser, sessionResponse } from "./identity";
import { createSession, logout, refreshGrant, type LogoutScope } from "./sessions";
import {
  checkPasswordStrength,
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
 * POST /signup. The local stack confirms e-mail addresses at once (like `supabase start` with the mailer
 * autoconfirm default), so a signup answers with a session straight away.
 */
export async function signup(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
        confirmed: true,
        signedIn: true,
      });
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
 * PUT /user: user_metadata (`data`, merged), password (other sessions are signed out, as GoTrue does), email
 * (changed at once: the local stack sends no confirmation mail).
 */
export async function putUser(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { user, session } = await requireUser(ctx, req);
  const body = await readAuthBody(req);
  refusePhone(body);
  const data = optionalObject(body, "data");
  const password = optionalString(body, "password");
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
    if (await passwordMatches(user, password)) {
      throw unprocessable("same_password", "New password should be different from the old password.");
    }
    passwordHash = await hashPassword(password);
  }
  try {
    const updated = await withTransaction(ctx.pool, async (tx) => {
      const row = await updateUser(tx, user.id, {
        email,
        passwordHash,
        confirmEmail: email !== undefined,
        userMetadata: data ? mergeMetadata(user.raw_user_meta_data, data) : undefined,
      });
      if (passwordHash) await logout(tx, "others", user.id, session?.id ?? null);
      return row;
    });
    sendJson(res, 200, userJson(updated));
  } catch (e) {
    if (isDuplicateEmail(e)) throw unprocessable("email_exists", DUPLICATE_EMAIL);
    throw e;
  }
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

