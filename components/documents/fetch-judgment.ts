import { cache } from "react";
import { cookies, headers } from "next/headers";
import { normaliseJudgment, type Judgment, type Raw } from "./judgment";

/**
 * Server-side read of /api/documents/{id}/metadata for the page's first paint and its <title>. It goes through the web
 * tier's own route (same origin, the visitor's cookies forwarded) so the public-access rules stay in one place.
 * `cache` shares one request between generateMetadata and the page.
 */
export const fetchJudgment = cache(async (id: string): Promise<{ judgment: Judgment | null; status: number }> => {
  const h = await headers();
  const host = h.get("host");
  if (!host) return { judgment: null, status: 500 };
  const proto = h.get("x-forwarded-proto") ?? "http";
  const cookie = (await cookies()).toString();
  try {
    const res = await fetch(`${proto}://${host}/api/documents/${encodeURIComponent(id)}/metadata`, {
      headers: { accept: "application/json", ...(cookie ? { cookie } : {}) },
      cache: "no-store",
    });
    if (!res.ok) return { judgment: null, status: res.status };
    return { judgment: normaliseJudgment((await res.json()) as Raw), status: 200 };
  } catch {
    return { judgment: null, status: 503 };
  }
});
