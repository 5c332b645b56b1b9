import type pg from "pg";
import { Browser, createUser } from "./http";
import { anonClient } from "./supabase";
import { stackEnv } from "./stack";

/**
 * A victim for the attacker's suite: a real user signed in through the app (cookie session), a genuine access token
 * of a second session (for bearer forgeries), and a collection holding two judgments, created through the API. Every
 * attack ends by comparing `ownerSnapshot` before and after: what the victim owns, read straight from Postgres.
 */
export interface Victim {
  id: string;
  email: string;
  password: string;
  browser: Browser;
  token: string;
  collectionId: string;
  documentIds: string[];
}

/** The app's own origin: what our pages send as Origin on a write. */
export const ownOrigin = () => new URL(stackEnv().appUrl as string).origin;

/** Headers of a write from our own page (the Browser sends JSON already). */
export const sameOrigin = () => ({ origin: ownOrigin(), "sec-fetch-site": "same-origin" });

export async function judgmentIds(pool: pg.Pool, n: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>("select id from public.judgments order by id limit $1", [n]);
  if (rows.length < n) throw new Error("the test corpus has too few judgments");
  return rows.map((r) => r.id);
}

export async function makeVictim(pool: pg.Pool, label = "victim", opts: { admin?: boolean } = {}): Promise<Victim> {
  // An admin victim gets past the role gate of admin routes, so what follows it (body caps) is attacked too.
  const user = await createUser({ admin: opts.admin });
  const browser = new Browser();
  const signIn = await browser.post("/api/auth/sign-in", { email: user.email, password: user.password }, sameOrigin());
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status}`);
  const documentIds = await judgmentIds(pool, 2);
  const made = await browser.post("/api/collections", { name: `${label} collection`, description: "kept", document_ids: documentIds, tags: ["mine"] }, sameOrigin());
  if (made.status !== 201) throw new Error(`create collection failed: ${made.status} ${await made.text()}`);
  const collectionId = ((await made.json()) as { id: string }).id;
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error || !data.session) throw new Error(`token sign-in failed: ${error?.message}`);
  return { ...user, browser, token: data.session.access_token, collectionId, documentIds };
}

/**
 * Everything `userId` owns or has caused, as one comparable value: collections (every column), their members, product
 * events and searches attributed to the user, and the account row. Read as the database owner, so RLS hides nothing.
 */
export async function ownerSnapshot(pool: pg.Pool, userId: string): Promise<unknown> {
  const { rows } = await pool.query(
    `select
       (select coalesce(json_agg(to_jsonb(c) order by c.id), '[]') from public.collections c where c.user_id = $1) as collections,
       (select coalesce(json_agg(json_build_array(d.collection_id, d.judgment_id) order by d.collection_id, d.judgment_id), '[]')
          from public.collection_documents d join public.collections c on c.id = d.collection_id where c.user_id = $1) as members,
       (select count(*) from public.app_events e where e.user_id = $1)::int as events,
       (select count(*) from public.search_analytics s where s.user_id = $1)::int as searches,
       (select to_jsonb(u) - 'last_sign_in_at' - 'updated_at' from auth.users u where u.id = $1) as account`,
    [userId],
  );
  return rows[0];
}

/** Collections in the whole database: an attack must not create one for anybody. */
export async function collectionCount(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>("select count(*)::int as n from public.collections");
  return rows[0].n;
}

/**
 * What no attack may change: each named user's own data and the number of collections anyone has. Taken before a
 * file's attacks and compared (toEqual) after them.
 */
export async function guardedState(pool: pg.Pool, userIds: string[]): Promise<{ owners: unknown[]; collections: number }> {
  return { owners: await Promise.all(userIds.map((id) => ownerSnapshot(pool, id))), collections: await collectionCount(pool) };
}

/** A plausible body for each write route, so a refusal is not just a validation error on an empty body. */
export function bodyFor(method: string, template: string, v: Pick<Victim, "documentIds" | "collectionId">): unknown {
  const t = template;
  if (t.endsWith("/sign-in") || t.endsWith("/sign-up")) return { email: "attacker@example.org", password: "attacker-password=" };
  if (t === "/api/collections") return { name: "planted by the attacker" };
  if (t.endsWith("/documents/batch") || (t.endsWith("/[id]/documents") && method === "DELETE")) return { document_ids: v.documentIds };
  if (t.endsWith("/[id]/documents")) return { document_id: v.documentIds[0] };
  if (t === "/api/collections/[id]" && method === "PATCH") return { name: "renamed by the attacker" };
  if (t === "/api/saved-searches/[id]" && method === "PATCH") return { name: "renamed by the attacker", alert: { enabled: true } };
  if (t === "/api/schemas/[id]" && method === "PATCH") return { name: "renamed by the attacker" };
  if (t === "/api/schemas") return { name: "planted by the attacker", fields: [{ name: "x", type: "string" }] };
  if (t === "/api/schemas/generate") return { description: "offences and sentences of the appellant" };
  if (t.endsWith("/from-filter")) return { name: "planted from filter", filters: { collection_ids: [v.collectionId] } };
  if (t.endsWith("/aggregate")) return { filters: {}, fields: ["decision_date"] };
  if (t.endsWith("/base-schema/filter")) return { filters: {} };
  if (t.endsWith("/nl-filter")) return { query: "robbery in 2019" };
  if (t === "/api/documents/batch") return { ids: v.documentIds };
  if (t === "/api/documents/search") return { query: "robbery" };
  if (t === "/api/chat/threads/[id]" && method === "PATCH") return { title: "renamed by the attacker" };
  if (t === "/api/chat") return { message: "robbery", stream: false };
  if (t === "/api/qa") return { question: "robbery" };
  if (t === "/api/events") return { events: [{ name: "judgment_viewed", properties: { document_id: v.documentIds[0] } }] };
  return {};
}
