/**
 * Server-side reads for pages (app/**\/page.tsx, the root layout). Pages call these instead of their own API over
 * HTTP, which would cost a round trip and count against the server's own address in the rate limiter; components
 * receive the results as props and never build Supabase clients or import lib/backend themselves.
 *
 * Each helper is wrapped in React `cache`, so one render (layout, generateMetadata, page) verifies the session and
 * reads a judgment once.
 */
import { headers } from "next/headers";
import { cache } from "react";
import { effectiveRole } from "@/lib/backend/admin/access";
import { documentReferences, type DocumentReference } from "@/lib/backend/citations";
import { documentPage } from "@/lib/backend/documents";
import { compareJudges, judgeKnown, judgeProfile, type JudgeComparison, type JudgeProfile } from "@/lib/backend/analysis/judges";
import { provision, ProvisionQuery, type ProvisionBody } from "@/lib/backend/legislation";
import type { Identity } from "@/lib/backend/identity";
import { logger } from "@/lib/logger";
import { supabaseEnv } from "@/lib/supabase/env";
import { createServiceClient, sessionClientFactory } from "@/lib/supabase/server";
import { ApiError } from "@/lib/errors";
import { builtOnce, claimsOf, rateLimitIdentityOf, roleOf, withLazyDb, type Claims } from "./identity";
import { verifiedSessionClaims } from "./token-claims";
import { limitQuota } from "./rate-limit";

/** The signed-in visitor as pages and the header show it. */
export interface SessionUser {
  id: string;
  email: string | null;
  role: "user" | "admin";
}

/**
 * The visitor of a server-rendered page (cookie session only), verified locally (the cached JWKS, else supabase-js
 * getClaims(); writes re-check with getUser() in the route handlers).
 */
export const pageIdentity = cache(async (): Promise<Identity> => {
  // The session client is built once, and only when something reads with it (as in the route handlers).
  const sessionDb = builtOnce(await sessionClientFactory());
  // The route handlers' fast path first (a token that verifies against the cached JWKS), then supabase-js, which
  // refreshes a session due for it. A token supabase-js cannot process (a forged alg under the genuine kid) is a
  // signed-out visitor, not a 500.
  const fast = (await verifiedSessionClaims((await headers()).get("cookie"), supabaseEnv().url)) as Claims | null;
  const read = fast ? null : await claimsOf(sessionDb(), null);
  const claims = fast ?? (read && !read.error && read.data?.claims ? (read.data.claims as Claims) : null);
  const claimed = roleOf(claims);
  // A banned user is a signed-out visitor and a revoked admin a user, as in the route handlers (lib/api/identity.ts).
  const role = claimed === "anonymous" || !claims?.sub ? claimed : await effectiveRole(createServiceClient, claims.sub, claimed, claims.iat);
  const userId = role === "anonymous" ? null : (claims?.sub ?? null);
  return withLazyDb(
    {
      role,
      userId,
      email: userId ? (claims?.email ?? null) : null,
      via: userId ? "session" : "none",
      apiKey: null,
      rateLimitId: userId ? rateLimitIdentityOf(userId) : null,
    },
    sessionDb,
  );
});

/**
 * The signed-in user for the header and gated pages. Null when signed out or when the auth backend is not configured
 * or unreachable: a page must still render then.
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  try {
    const who = await pageIdentity();
    if (who.role === "anonymous" || !who.userId) return null;
    return { id: who.userId, email: who.email, role: who.role };
  } catch {
    return null;
  }
});

/**
 * A judgment for the document page's first paint and its <title>: the metadata and the sanitised full-text HTML,
 * through the same backend function as GET /api/documents/{id}/metadata and /html (same rules, the visitor's own
 * session), in one read (the judgment text is in the server HTML, not fetched after hydration). `raw` and
 * `html` are null with the answer's status when it cannot be read.
 */
export const pageDocument = cache(async (id: string): Promise<{ raw: Record<string, unknown> | null; html: string | null; status: number }> => {
  try {
    const { metadata, html } = await documentPage(id, await pageIdentity());
    return { raw: metadata as Record<string, unknown>, html, status: 200 };
  } catch (e) {
    if (e instanceof ApiError) return { raw: null, html: null, status: e.status };
    logger.error({ err: e instanceof Error ? e.message : String(e), id }, "judgment page: read failed");
    return { raw: null, html: null, status: 500 };
  }
});

/** A page read: the answer, or the status and message of the API's refusal (a 404 is the page's not-found). */
export type PageRead<T> = { data: T; status: 200; message: null } | { data: null; status: number; message: string };

async function pageRead<T>(what: string, read: () => Promise<T>): Promise<PageRead<T>> {
  try {
    return { data: await read(), status: 200, message: null };
  } catch (e) {
    if (e instanceof ApiError) return { data: null, status: e.status, message: e.message };
    logger.error({ err: e instanceof Error ? e.message : String(e) }, `${what}: read failed`);
    return { data: null, status: 500, message: "" };
  }
}

/** Whether a judgment names the judge (a cheap read: the judge pages answer 404 with it before streaming the profile). */
export const pageJudgeKnown = cache(async (name: string): Promise<boolean> => {
  try {
    return await judgeKnown((await pageIdentity()).db, name);
  } catch (e) {
    // Unknown is not the same as unreadable: the profile read that follows reports the error.
    logger.warn({ err: e instanceof Error ? e.message : String(e) }, "judge page: name check failed");
    return true;
  }
});

/** /judges/{name}: the profile through the same backend function as GET /api/judge-fingerprint/profile/{name}. */
export const pageJudgeProfile = cache(
  async (name: string): Promise<PageRead<JudgeProfile>> =>
    pageRead("judge page", async () => judgeProfile((await pageIdentity()).db, name, createServiceClient())),
);

/**
 * /judges/compare?j=…: the comparison as GET /api/judge-fingerprint/compare answers it, counted against the same
 * hourly quota (judgeCompare) as the API (names joined by commas, the API's form, which is also the cache key).
 */
export const pageJudgeComparison = cache(
  async (joined: string): Promise<PageRead<JudgeComparison>> =>
    pageRead("judge comparison page", async () => {
      const who = await pageIdentity();
      await limitQuota("judgeCompare", { rateLimitId: who.rateLimitId, address: "page" });
      return compareJudges(who.db, joined, createServiceClient());
    }),
);
/**
 * What a judgment cites, for the judgment page's first paint (its links in the text and the "Cites" panel), through
 * the same backend function as GET /api/documents/{id}/references. Null when it cannot be read: the page then fetches
 * it in the browser and shows that request's error.
 */
export const pageDocumentReferences = cache(async (id: string): Promise<DocumentReference[] | null> => {
  try {
    return (await documentReferences(id, await pageIdentity())).items;
  } catch (e) {
    if (!(e instanceof ApiError)) logger.error({ err: e instanceof Error ? e.message : String(e), id }, "judgment page: references read failed");
    return null;
  }
});

/**
 * A provision page's first render: the provision and the judgments applying it under the page's filters, through the
 * same backend function as GET /api/legislation/{id}; `path` is the id, `queryString` the filters and page. `status` 422 for what is no provision id (the page's 404).
 */
export const pageProvision = cache(async (path: string, queryString: string): Promise<{ body: ProvisionBody | null; status: number }> => {
  const parsed = ProvisionQuery.safeParse({ ...Object.fromEntries(new URLSearchParams(queryString)), format: "json" });
  if (!parsed.success) return { body: null, status: 422 };
  try {
    const body = await provision(path, parsed.data, await pageIdentity());
    return body instanceof Response ? { body: null, status: 500 } : { body, status: 200 };
  } catch (e) {
    if (e instanceof ApiError) return { body: null, status: e.status };
    logger.error({ err: e instanceof Error ? e.message : String(e), path }, "provision page: read failed");
    return { body: null, status: 500 };
  }
});
