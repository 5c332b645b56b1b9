import type { IncomingMessage, ServerResponse } from "node:http";
import { requireApiKey } from "../api-key";
import type { GatewayContext } from "../context";
import { sendJson } from "../http";
import { createUser, deleteUserById, getUserById, listUsers, requireAdmin, updateUserById } from "./admin-routes";
import { AuthError, sendAuthError } from "./errors";
import { getUser, postLogout, putUser, signup, token, verify } from "./user-routes";

/** What GoTrue answers on GET /settings for this stack: e-mail + password only; mailer_autoconfirm per AUTH_AUTOCONFIRM. */
const SETTINGS = {
  external: {
    anonymous_users: false,
    apple: false,
    azure: false,
    bitbucket: false,
    discord: false,
    email: true,
    facebook: false,
    figma: false,
    github: false,
    gitlab: false,
    google: false,
    keycloak: false,
    kakao: false,
    linkedin_oidc: false,
    notion: false,
    phone: false,
    saml: false,
    slack_oidc: false,
    spotify: false,
    twitch: false,
    twitter: false,
    workos: false,
    zoom: false,
  },
  disable_signup: false,
  mailer_autoconfirm: true,
  phone_autoconfirm: false,
  sms_provider: "",
  saml_enabled: false,
};

/**
 * GoTrue-compatible /auth/v1. `path` is the part after /auth/v1 (e.g. "/token").
 * The JWKS is public (like Supabase's `/auth/v1/.well-known/jwks.json`, which jose's createRemoteJWKSet fetches
 * without headers), and so is GET /verify (a mail's link); every other route needs a valid project API key, as
 * Supabase's gateway demands.
 */
export async function handleAuth(
  ctx: GatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
): Promise<void> {
  const method = req.method ?? "GET";
  if (path === "/.well-known/jwks.json" && (method === "GET" || method === "HEAD")) {
    sendJson(res, 200, { keys: [ctx.tokens.publicJwk] }, { "Cache-Control": "public, max-age=600" });
    return;
  }
  try {
    // A confirmation link is opened from a mail, without an API key (Supabase's gateway leaves /verify open too).
    if (path.replace(/\/+$/, "") === "/verify" && method === "GET") return await verify(ctx, res, url);
    if (!(await requireApiKey(req, res, ctx.tokens))) return;
    await route(ctx, req, res, method, path, url);
  } catch (e) {
    if (e instanceof AuthError) {
      sendAuthError(req, res, e);
      return;
    }
    ctx.log(`auth ${method} ${path} failed: ${(e as Error).message}`);
    sendAuthError(req, res, new AuthError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information"));
  }
}

async function route(
  ctx: GatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  path: string,
  url: URL,
): Promise<void> {
  const p = path.replace(/\/+$/, "") || "/";
  if (p === "/health" && method === "GET") {
    sendJson(res, 200, {
      version: "local-gateway",
      name: "GoTrue",
      description: "GoTrue is a user registration and authentication API",
    });
    return;
  }
  if (p === "/settings" && method === "GET") return sendJson(res, 200, { ...SETTINGS, mailer_autoconfirm: ctx.autoconfirm });
  if (p === "/signup" && method === "POST") return signup(ctx, req, res);
  if (p === "/token" && method === "POST") return token(ctx, req, res, url);
  if (p === "/user" && method === "GET") return getUser(ctx, req, res);
  if (p === "/user" && method === "PUT") return putUser(ctx, req, res);
  if (p === "/logout" && method === "POST") return postLogout(ctx, req, res, url);
  if (p === "/admin/users" || p.startsWith("/admin/users/")) {
    await requireAdmin(ctx, req);
    if (p === "/admin/users") {
      if (method === "GET") return listUsers(ctx, res, url);
      if (method === "POST") return createUser(ctx, req, res);
      throw new AuthError(405, "method_not_allowed", "Method not allowed");
    }
    const id = decodeURIComponent(p.slice("/admin/users/".length));
    if (id.includes("/")) throw new AuthError(404, "not_found", "Not found: this admin endpoint is not emulated locally");
    if (method === "GET") return getUserById(ctx, res, id);
    if (method === "PUT") return updateUserById(ctx, req, res, id);
    if (method === "DELETE") return deleteUserById(ctx, req, res, id);
    throw new AuthError(405, "method_not_allowed", "Method not allowed");
  }
  throw new AuthError(404, "not_found", `Not found: ${method} /auth/v1${p} is not emulated by the local gateway`);
}
