import { randomBytes } from "node:crypto";
import type pg from "pg";
import { checkout } from "../db";
import { badRequest } from "./errors";
import { findUserById, isBanned, type UserRow } from "./users";

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  /** Set at sign-in and by every refresh: when the session was last used to refresh (for the inactivity timeout). */
  updated_at: Date;
  not_after: Date | null;
  aal: string | null;
}

const INSTANCE_ID = "00000000-0000-0000-0000-000000000000";

/** Opaque refresh token (GoTrue stores them as-is in auth.refresh_tokens.token). */
function newRefreshToken(): string {
  return randomBytes(24).toString("base64url");
}

async function insertRefreshToken(db: Queryable, userId: string, sessionId: string, parent: string | null): Promise<string> {
  const token = newRefreshToken();
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, parent, session_id)
     values ($1, $2, $3, false, $4, $5)`,
    [INSTANCE_ID, token, userId, parent, sessionId],
  );
  return token;
}

/** A new sign-in: one auth.sessions row and its first refresh token. */
export async function createSession(db: Queryable, userId: string): Promise<{ session: SessionRow; refreshToken: string }> {
  const { rows } = await db.query<SessionRow>(
    `insert into auth.sessions (id, user_id, aal) values (gen_random_uuid(), $1, 'aal1')
     returning id, user_id, created_at, updated_at, not_after, aal`,
    [userId],
  );
  const session = rows[0];
  return { session, refreshToken: await insertRefreshToken(db, userId, session.id, null) };
}

export async function findSession(db: Queryable, id: string): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    "select id, user_id, created_at, updated_at, not_after, aal from auth.sessions where id = $1",
    [id],
  );
  return rows[0] ?? null;
}

interface TokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  updated_at: Date;
  parent: string | null;
  session_id: string | null;
}

/** Session lifetime limits in seconds; 0 turns one off (GoTrue's GOTRUE_SESSIONS_TIMEBOX / _INACTIVITY_TIMEOUT). */
export interface SessionLimits {
  timeboxSeconds: number;
  inactivityTimeoutSeconds: number;
}

export type SessionValidity = "valid" | "past_not_after" | "past_timebox" | "timed_out";

/**
 * GoTrue's Session.CheckValidity: past its `not_after`, older than the time-box (counted from sign-in), or not
 * refreshed within the inactivity timeout (counted from the last refresh, here `updated_at`).
 */
export function sessionValidity(session: Pick<SessionRow, "created_at" | "updated_at" | "not_after">, limits: SessionLimits, now = Date.now()): SessionValidity {
  if (session.not_after && now > session.not_after.getTime()) return "past_not_after";
  if (limits.timeboxSeconds > 0 && now > session.created_at.getTime() + limits.timeboxSeconds * 1000) return "past_timebox";
  const lastRefresh = (session.updated_at ?? session.created_at).getTime();
  if (limits.inactivityTimeoutSeconds > 0 && now > lastRefresh + limits.inactivityTimeoutSeconds * 1000) return "timed_out";
  return "valid";
}

export interface RefreshOutcome {
  user: UserRow;
  session: SessionRow;
  refreshToken: string;
}

/**
 * The refresh_token grant with rotation, after GoTrue's tokens.Service.RefreshTokenGrant: the presented token is
 * revoked and a child issued. A revoked token is accepted again only while it is the parent of the session's
 * active token (the client lost the previous answer: that active token is returned) or within the reuse interval;
 * any later reuse revokes the whole session's token family and fails with `refresh_token_already_used`.
 * Rows are locked so concurrent refreshes of one session serialise.
 */
export async function refreshGrant(
  pool: pg.Pool,
  presented: string,
  reuseIntervalSeconds: number,
  limits: SessionLimits = { timeboxSeconds: 0, inactivityTimeoutSeconds: 0 },
): Promise<RefreshOutcome> {
  const { client, release } = await checkout(pool);
  let committed = false;
  try {
    await client.query("begin");
    const found = await client.query<TokenRow>(
      `select id, token, user_id, revoked, updated_at, parent, session_id
       from auth.refresh_tokens where token = $1 for update`,
      [presented],
    );
    const token = found.rows[0];
    const user = token ? await findUserById(client, token.user_id) : null;
    if (!token || !user) throw badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    if (isBanned(user)) throw badRequest("user_banned", "Invalid Refresh Token: User Banned");
    const sessionRows = token.session_id
      ? await client.query<SessionRow>(
          "select id, user_id, created_at, updated_at, not_after, aal from auth.sessions where id = $1 for update",
          [token.session_id],
        )
      : null;
    const session = sessionRows?.rows[0];
    if (!session) throw badRequest("session_not_found", "Invalid Refresh Token: No Valid Session Found");
    // GoTrue's answers (token_refresh.go): 400 session_expired, "(Inactivity)" when the inactivity timeout ended it.
    const validity = sessionValidity(session, limits);
    if (validity === "timed_out") throw badRequest("session_expired", "Invalid Refresh Token: Session Expired (Inactivity)");
    if (validity !== "valid") throw badRequest("session_expired", "Invalid Refresh Token: Session Expired");

    let issued: string | null = null;
    if (token.revoked) {
      const active = await client.query<TokenRow>(
        `select id, token, user_id, revoked, updated_at, parent, session_id from auth.refresh_tokens
         where session_id = $1 and revoked = false order by id desc limit 1`,
        [session.id],
      );
      const current = active.rows[0];
      if (current && current.parent === token.token) {
        issued = current.token;
      } else if (Date.now() > token.updated_at.getTime() + reuseIntervalSeconds * 1000) {
        await client.query("update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1", [
          session.id,
        ]);
        await client.query("commit");
        committed = true;
        throw badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used");
      }
    }
    if (!issued) {
      await client.query("update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1", [token.id]);
      issued = await insertRefreshToken(client, user.id, session.id, token.token);
    }
    await client.query("update auth.sessions set updated_at = now() where id = $1", [session.id]);
    await client.query("commit");
    committed = true;
    return { user, session, refreshToken: issued };
  } finally {
    if (!committed) await client.query("rollback").catch(() => undefined);
    release();
  }
}

export type LogoutScope = "global" | "local" | "others";

/** GoTrue's logout scopes; deleting sessions cascades to their refresh tokens. */
export async function logout(db: Queryable, scope: LogoutScope, userId: string, sessionId: string | null): Promise<void> {
  if (scope === "local") {
    if (sessionId) await db.query("delete from auth.sessions where id = $1", [sessionId]);
    return;
  }
  if (scope === "others") {
    await db.query("delete from auth.sessions where user_id = $1 and id is distinct from $2", [userId, sessionId]);
    return;
  }
  await db.query("delete from auth.sessions where user_id = $1", [userId]);
  // Tokens that never had a session (none are issued by us, but the table may hold imported ones).
  await db.query("update auth.refresh_tokens set revoked = true, updated_at = now() where user_id = $1", [userId]);
}
