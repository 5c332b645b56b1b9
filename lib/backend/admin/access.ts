import { z } from "zod";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import type { DbClient } from "@/lib/supabase/db-client";
import { withinDeadline } from "../deadline";
import type { Role } from "../identity";

/**
 * Bans and revoked admin roles for tokens already issued. An access token is verified
 * locally and stays valid until it expires, so a ban or a revoked role would otherwise wait for the token to run out.
 * Each app process keeps one copy of who is banned and who is an admin now (auth_access_snapshot(), ids only) for
 * ADMIN_ACCESS_CACHE_TTL_MS; a change made through this process drops the copy, so it applies to the very next
 * request here, and to other processes within the TTL. Cost per request: a Set lookup; one RPC per TTL per process.
 */

const SnapshotSchema = z.object({
  banned: z.array(z.string()),
  admins: z.array(z.string()),
  at: z.string(),
});

interface Snapshot {
  banned: ReadonlySet<string>;
  admins: ReadonlySet<string>;
  /** Database time the snapshot describes (ms). */
  at: number;
  /** Local time it was fetched (ms), for the TTL. */
  fetchedAt: number;
}

let current: Snapshot | null = null;
let inflight: Promise<Snapshot | null> | null = null;
let generation = 0;
/** When the last read failed: no new attempt for a TTL, so an outage costs one failed call per TTL, not per request. */
let failedAt = 0;

async function fetchSnapshot(serviceDb: DbClient): Promise<Snapshot | null> {
  const gen = generation;
  // A short deadline of its own (ACCESS_SNAPSHOT_TIMEOUT_MS, and never past the request's budget): with the gateway
  // hung, this read used to wait the full UPSTREAM_TIMEOUT_MS before the request's own call waited as long again. Past
  // it the last copy is used (below); the abort frees the connection.
  const ms = config().ACCESS_SNAPSHOT_TIMEOUT_MS;
  const abort = new AbortController();
  const { data, error } = await withinDeadline(
    Promise.resolve(serviceDb.rpc("auth_access_snapshot").abortSignal(abort.signal)),
    ms,
    `the access snapshot did not answer within ${ms} ms`,
  ).catch((e: unknown) => {
    abort.abort();
    throw e;
  });
  if (error) throw new Error(error.message);
  const parsed = SnapshotSchema.parse(data);
  const snap: Snapshot = { banned: new Set(parsed.banned), admins: new Set(parsed.admins), at: Date.parse(parsed.at), fetchedAt: Date.now() };
  // A change made while this read was in flight may not be in it: keep it for this caller only.
  if (gen === generation) current = snap;
  return snap;
}

async function snapshot(serviceDb: () => DbClient, force = false): Promise<Snapshot | null> {
  const ttl = config().ADMIN_ACCESS_CACHE_TTL_MS;
  if (!force && current && Date.now() - current.fetchedAt < ttl) return current;
  if (Date.now() - failedAt < ttl) return current;
  inflight ??= Promise.resolve()
    .then(() => fetchSnapshot(serviceDb()))
    .catch((e: unknown) => {
      // Fail open to the last copy (or the token alone): an unreachable database must not sign everybody out. Admin
      // writes still meet RLS and the auth server's own checks.
      failedAt = Date.now();
      logger.warn({ err: e instanceof Error ? e.message : String(e) }, "access snapshot unavailable; using the last one");
      return current;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** Drop this process's copy: the next request reads who is banned and who is admin afresh. */
export function invalidateAccessSnapshot(): void {
  generation++;
  failedAt = 0;
  current = null;
}

/**
 * The role a verified token may act with now: "anonymous" for a banned user (so every gated route answers 401), "user"
 * for a token still saying admin whose role was revoked after it was issued (`issuedAtSec`, the token's iat). A role
 * granted after the token was issued is not added: the database's RLS reads the token, so the grant takes effect with
 * the next token (sign-in or refresh), as on Supabase.
 */
export async function effectiveRole(serviceDb: () => DbClient, userId: string, claimed: Exclude<Role, "anonymous">, issuedAtSec?: number): Promise<Role> {
  let snap = await snapshot(serviceDb);
  if (!snap) return claimed;
  if (snap.banned.has(userId)) return "anonymous";
  if (claimed === "admin" && !snap.admins.has(userId)) {
    // Our copy may predate the token (a user made admin a moment ago): read afresh before refusing. iat has whole
    // seconds, hence the +1. A copy read after the token was issued that lacks the user means the role was revoked.
    if (issuedAtSec !== undefined && snap.at < (issuedAtSec + 1) * 1000) snap = (await snapshot(serviceDb, true)) ?? snap;
    if (!snap.admins.has(userId) && (issuedAtSec === undefined || snap.at >= issuedAtSec * 1000)) return "user";
  }
  return claimed;
}
