import type { IncomingMessage, ServerResponse } from "node:http";
import type { GatewayContext } from "../context";
import { withTransaction } from "../db";
import { sendJson } from "../http";
import { optionalBoolean, optionalObject, optionalString, readAuthBody } from "./body";
import { badRequest, forbidden, notFound, unprocessable } from "./errors";
import { isUuid, requireClaims } from "./identity";
import { logout } from "./sessions";
import {
  checkPasswordStrength,
  findUserByEmail,
  findUserById,
  hashPassword,
  insertUser,
  mergeMetadata,
  normaliseEmail,
  updateUser,
  userJson,
  type UserRow,
} from "./users";
import { DUPLICATE_EMAIL, INVALID_EMAIL, isDuplicateEmail } from "./user-routes";

/** Roles GoTrue accepts on /admin (config.JWT.AdminRoles default). */
const ADMIN_ROLES = new Set(["service_role", "supabase_admin"]);

/** GoTrue's requireAdminCredentials: a verified bearer whose role is an admin role, else 403 not_admin. */
export async function requireAdmin(ctx: GatewayContext, req: IncomingMessage): Promise<void> {
  const claims = await requireClaims(ctx, req);
  if (typeof claims.role !== "string" || !ADMIN_ROLES.has(claims.role)) {
    throw forbidden("not_admin", "User not allowed");
  }
}

/** Go duration strings as GoTrue's ban_duration takes them ("24h", "1h30m", "90s"); "none" lifts a ban. */
function parseBanDuration(raw: string): number | null {
  if (raw === "none") return 0;
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s)/g;
  let ms = 0;
  let consumed = 0;
  for (const m of raw.matchAll(re)) {
    const n = Number(m[1]);
    ms += n * ({ h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const)[m[2] as "h" | "m" | "s" | "ms"];
    consumed += m[0].length;
  }
  return consumed === raw.length && consumed > 0 ? ms : null;
}

async function applyBan(ctx: GatewayContext, userId: string, raw: string | undefined): Promise<void> {
  if (raw === undefined || raw === "") return;
  const ms = parseBanDuration(raw);
  if (ms === null) throw badRequest("validation_failed", `invalid format for ban duration: ${raw}`);
  await ctx.pool.query(
    "update auth.users set banned_until = case when $2::bigint = 0 then null else now() + ($2::bigint * interval '1 millisecond') end where id = $1",
    [userId, ms],
  );
}

function refusePhone(body: Record<string, unknown>): void {
  if (body.phone !== undefined && body.phone !== null && body.phone !== "") {
    throw badRequest("phone_provider_disabled", "Phone users are not supported by the local stack");
  }
}

/** GET /admin/users?page=&per_page= → {users, aud} with GoTrue's X-Total-Count and Link pagination headers. */
export async function listUsers(ctx: GatewayContext, res: ServerResponse, url: URL): Promise<void> {
  const page = Number(url.searchParams.get("page") || 1);
  const perPage = Number(url.searchParams.get("per_page") || 50);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > 1000) {
    throw badRequest("validation_failed", "Bad Pagination Parameters");
  }
  const { rows } = await ctx.pool.query<UserRow & { total: string }>(
    `select id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_sent_at, last_sign_in_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, phone, banned_until, is_anonymous,
       count(*) over () as total
     from auth.users where deleted_at is null
     order by created_at desc, id limit $1 offset $2`,
    [perPage, (page - 1) * perPage],
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && page > 1) {
    const c = await ctx.pool.query<{ n: string }>("select count(*) as n from auth.users where deleted_at is null");
    total = Number(c.rows[0].n);
  }
  const lastPage = Math.ceil(total / perPage);
  const links: string[] = [];
  if (total > page * perPage) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
  sendJson(
    res,
    200,
    { users: rows.map(({ total: _t, ...u }) => userJson(u)), aud: "authenticated" },
    { "X-Total-Count": String(total), Link: links.join(", ") },
  );
}

/** POST /admin/users (auth.admin.createUser). Without email_confirm the user cannot sign in with a password yet. */
export async function createUser(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readAuthBody(req);
  refusePhone(body);
  if (body.email === undefined || body.email === null || body.email === "") {
    throw unprocessable("validation_failed", "Cannot create a user without either an email or phone");
  }
  const email = normaliseEmail(body.email);
  if (!email) throw badRequest("validation_failed", INVALID_EMAIL);
  const password = optionalString(body, "password");
  if (password) checkPasswordStrength(password);
  const userMetadata = optionalObject(body, "user_metadata") ?? {};
  const appMetadata = optionalObject(body, "app_metadata");
  const confirm = optionalBoolean(body, "email_confirm") ?? false;
  const role = optionalString(body, "role");
  const ban = optionalString(body, "ban_duration");
  if (ban && parseBanDuration(ban) === null) throw badRequest("validation_failed", `invalid format for ban duration: ${ban}`);
  if (await findUserByEmail(ctx.pool, email)) throw unprocessable("email_exists", DUPLICATE_EMAIL);
  const passwordHash = password ? await hashPassword(password) : "";
  try {
    const user = await withTransaction(ctx.pool, async (tx) => {
      const created = await insertUser(tx, {
        email,
        passwordHash,
        userMetadata,
        appMetadata: mergeMetadata({ provider: "email", providers: ["email"] }, appMetadata ?? {}),
        confirmed: confirm,
        signedIn: false,
      });
      if (role) await tx.query("update auth.users set role = $2 where id = $1", [created.id, role]);
      return created;
    });
    await applyBan(ctx, user.id, ban);
    sendJson(res, 200, userJson((await findUserById(ctx.pool, user.id)) ?? user));
  } catch (e) {
    if (isDuplicateEmail(e)) throw unprocessable("email_exists", DUPLICATE_EMAIL);
    throw e;
  }
}

async function loadUser(ctx: GatewayContext, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw badRequest("validation_failed", "user_id must be an UUID");
  const user = await findUserById(ctx.pool, id);
  if (!user) throw notFound("user_not_found", "User not found");
  return user;
}

export async function getUserById(ctx: GatewayContext, res: ServerResponse, id: string): Promise<void> {
  sendJson(res, 200, userJson(await loadUser(ctx, id)));
}

/** PUT /admin/users/{id} (auth.admin.updateUserById): e-mail, password, metadata (merged), confirmation, role, ban. */
export async function updateUserById(
  ctx: GatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const user = await loadUser(ctx, id);
  const body = await readAuthBody(req);
  refusePhone(body);
  let email: string | undefined;
  const rawEmail = optionalString(body, "email");
  if (rawEmail) {
    const normalised = normaliseEmail(rawEmail);
    if (!normalised) throw badRequest("validation_failed", INVALID_EMAIL);
    const other = await findUserByEmail(ctx.pool, normalised);
    if (other && other.id !== user.id) throw unprocessable("email_exists", DUPLICATE_EMAIL);
    if (normalised !== user.email) email = normalised;
  }
  const password = optionalString(body, "password");
  if (password !== undefined) checkPasswordStrength(password);
  const userMetadata = optionalObject(body, "user_metadata");
  const appMetadata = optionalObject(body, "app_metadata");
  const role = optionalString(body, "role");
  const ban = optionalString(body, "ban_duration");
  if (ban && parseBanDuration(ban) === null) throw badRequest("validation_failed", `invalid format for ban duration: ${ban}`);
  const passwordHash = password !== undefined ? await hashPassword(password) : undefined;
  try {
    await withTransaction(ctx.pool, async (tx) => {
      await updateUser(tx, user.id, {
        email,
        passwordHash,
        confirmEmail: optionalBoolean(body, "email_confirm") ?? false,
        userMetadata: userMetadata ? mergeMetadata(user.raw_user_meta_data, userMetadata) : undefined,
        appMetadata: appMetadata ? mergeMetadata(user.raw_app_meta_data, appMetadata) : undefined,
      });
      if (role) await tx.query("update auth.users set role = $2 where id = $1", [user.id, role]);
    });
  } catch (e) {
    if (isDuplicateEmail(e)) throw unprocessable("email_exists", DUPLICATE_EMAIL);
    throw e;
  }
  await applyBan(ctx, user.id, ban);
  sendJson(res, 200, userJson(await loadUser(ctx, user.id)));
}

/** DELETE /admin/users/{id}: hard delete (sessions and tokens cascade), or GoTrue's soft delete. Answers `{}`. */
export async function deleteUserById(
  ctx: GatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const user = await loadUser(ctx, id);
  const body = await readAuthBody(req);
  const soft = optionalBoolean(body, "should_soft_delete") ?? false;
  await withTransaction(ctx.pool, async (tx) => {
    if (soft) {
      await logout(tx, "global", user.id, null);
      // GoTrue obfuscates the identifiers of a soft-deleted user so the e-mail can be registered again.
      await tx.query(
        "update auth.users set deleted_at = now(), email = null, encrypted_password = null, updated_at = now() where id = $1",
        [user.id],
      );
    } else {
      await tx.query("delete from auth.users where id = $1", [user.id]);
    }
  });
  sendJson(res, 200, {});
}
