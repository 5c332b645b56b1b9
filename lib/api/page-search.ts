/**
 * The first page of /search, searched while the page renders: one backend call, no HTTP round trip
 * to our own API, under the rules GET /api/search/documents applies — the per-IP and per-user "search" limits, the
 * visitor's identity (guests: keyword only), the guest allowance (charged exactly once: the client adopts this answer
 * as its query data and does not fetch it again) and one analytics row. Whenever a rule would need something a page
 * cannot do (set a cookie, answer 429 with headers, a 4xx body), it returns null and the client's own request to the
 * API takes over with the API's answer; nothing has been charged then.
 */
import { after } from "next/server";
import { cookies, headers } from "next/headers";
import { GUEST_COOKIE, GuestLimitReachedError, GuestSessionUnavailableError, guestMeter, guestSearchKey } from "@/lib/backend/guest";
import { SearchDocumentsQuery, mapSearchErrors, searchDocuments, type SearchDocumentsBody } from "@/lib/backend/search";
import { queueSearchRecord, searchMode, searchParamsRecord } from "@/lib/backend/search-analytics";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { createServiceClient } from "@/lib/supabase/server";
import { guestFromSession, toResultHit, searchRequestPath, type InitialSearch, type SearchResult } from "@/lib/client/search-api";
import { hasSearchCriteria, parseSearchState, serializeSearchState } from "@/lib/client/search-url-state";
import { pageIdentity } from "./pages";
import { GUEST_MINT_HEADER } from "./page-search-header";
import { clientAddress, limitByAddressAndUser } from "./rate-limit";

type SearchParams = Record<string, string | string[] | undefined>;

function toUrlParams(sp: SearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(sp)) {
    if (typeof v === "string") out.append(k, v);
    else if (Array.isArray(v)) for (const x of v) out.append(k, x);
  }
  return out;
}

export async function pageSearchFirstPage(sp: SearchParams): Promise<InitialSearch | null> {
  try {
    const identity = await pageIdentity();
    const state = parseSearchState(toUrlParams(sp));
    // The key the client computes (components/search/search-page.tsx): guests search by keyword only.
    const effective = identity.role === "anonymous" ? { ...state, mode: "text" as const } : state;
    if (!hasSearchCriteria(effective)) return null;
    const parsed = SearchDocumentsQuery.safeParse(Object.fromEntries(new URL(searchRequestPath(effective), "http://x").searchParams));
    if (!parsed.success) return null;

    const h = await headers();
    await limitByAddressAndUser("search", clientAddress({ headers: h }).address, identity.rateLimitId);

    const run = () => mapSearchErrors(() => searchDocuments(parsed.data, identity));
    let body: SearchDocumentsBody;
    let guest: SearchResult["guest"] = null;
    if (identity.role === "anonymous") {
      const cookie = (await cookies()).get(GUEST_COOKIE)?.value ?? null;
      const mintAs = h.get(GUEST_MINT_HEADER);
      const metered = await guestMeter().meter(cookie, run, {
        mintAs: mintAs && mintAs === cookie ? mintAs : null,
        searchKey: guestSearchKey(parsed.data),
      });
      body = metered.result;
      guest = metered.session ? guestFromSession(metered.session) : null;
    } else {
      body = await run();
    }
    if (body.query && body.offset === 0) {
      after(() =>
        queueSearchRecord(createServiceClient, {
          query: body.query,
          hitCount: body.estimated_total,
          latencyMs: body.processing_time_ms + body.embedding_time_ms,
          mode: searchMode(body.semantic_ratio),
          userId: identity.userId,
          params: searchParamsRecord(parsed.data),
        }),
      );
    }
    return {
      key: serializeSearchState(effective),
      result: { hits: body.hits.map(toResultHit), estimatedTotal: body.estimated_total, processingTimeMs: body.processing_time_ms, guest, provision: body.provision ?? null },
    };
  } catch (e) {
    // Refusals (429s, a spent allowance, a bad filter) and failures are the API's to answer: the client asks it.
    if (!(e instanceof ApiError || e instanceof GuestLimitReachedError || e instanceof GuestSessionUnavailableError)) {
      logger.warn({ err: e instanceof Error ? e.message : String(e) }, "search page: server-side first page failed");
    }
    return null;
  }
}
