/**
 * The first page of /search/extractions and its default aggregate, read while the page renders:
 * the same backend functions as POST /api/extractions/base-schema/filter and /aggregate, with the visitor's own
 * session (RLS applies), the general per-IP and per-user limit counted once for the page as the filter route counts
 * it, and the same request validation. The client island adopts them as its query data for the URL it loaded with;
 * whenever anything is refused or fails, it returns null for that part and the client asks the API as before.
 */
import { headers } from "next/headers";
import { aggregateExtractedData } from "@/lib/backend/extractions/aggregate";
import { filterDocuments } from "@/lib/backend/extractions/filter";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { AggregateRequestSchema, FilterRequestSchema } from "@/lib/schema/requests/structured";
import { aggregateRequest, filterRequest, type InitialExtractions } from "@/lib/client/extractions-api";
import { parseExtractionState, serializeExtractionState } from "@/lib/client/extraction-url-state";
import { toApiFilter } from "@/lib/client/filter-codec";
import { pageIdentity } from "./pages";
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

function quiet(what: string) {
  return (e: unknown) => {
    if (!(e instanceof ApiError)) logger.warn({ err: e instanceof Error ? e.message : String(e) }, `extractions page: server-side ${what} failed`);
    return null;
  };
}

export async function pageExtractionsFirstPage(sp: SearchParams): Promise<InitialExtractions | null> {
  try {
    const identity = await pageIdentity();
    if (identity.role === "anonymous") return null;
    const url = parseExtractionState(toUrlParams(sp));
    if (url.malformed) return null;
    const filters = toApiFilter(url.filter);
    const filterBody = FilterRequestSchema.safeParse(filterRequest(filters, url.q, url.page));
    const aggregateBody = AggregateRequestSchema.safeParse(aggregateRequest(filters, url.q));
    if (!filterBody.success) return null;
    await limitByAddressAndUser("general", clientAddress({ headers: await headers() }).address, identity.rateLimitId);
    const [results, aggregate] = await Promise.all([
      filterDocuments(identity.db, filterBody.data).catch(quiet("filter")),
      aggregateBody.success ? aggregateExtractedData(identity.db, aggregateBody.data).catch(quiet("aggregate")) : null,
    ]);
    if (!results) return null;
    return { key: serializeExtractionState(url), results, aggregate };
  } catch (e) {
    quiet("first page")(e);
    return null;
  }
}
