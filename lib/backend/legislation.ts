/**
 * The citator's provision reads (docs/citations.md): GET /api/legislation?q= finds provisions by what a researcher
 * types ("279 § 1 kk", "s.18 OAPA 1861", "theft act"); GET /api/legislation/{id} lists the judgments applying one,
 * with counts per year and per outcome, filtered, sorted, paged, or as CSV. The judgments' `cites` arrays (written with
 * the references, lib/citations/store.ts) carry each provision with its ancestors, so an article's page includes the
 * judgments citing its paragraphs. Public like the judgments' own reads (RPCs of migration 20261208000100).
 */
import { z } from "zod";
import { LruCache } from "@/lib/lru";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { isCanonicalProvisionId, parseProvisionQuery } from "@/lib/citations/query";
import { provisionName } from "@/lib/citations/name";
import { foldDiacritics } from "@/lib/text/fold";
import { safeText } from "@/lib/schema/text";
import { citingJudgments, CitingListQuery, type CitingItem, type CitingList } from "./citations";
import { provisionAncestors } from "@/lib/citations/canonical";
import { exportResponse, onePage } from "./exports/stream";
import type { Identity } from "./identity";

export const LegislationLookupQuery = z.object({
  q: safeText().trim().min(1).max(200),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export interface LegislationLookupBody {
  query: string;
  /** The provision the query names exactly, when it does (its own row is first in results). */
  provision: string | null;
  results: { id: string; name: string; count: number }[];
}

const lookupRows = z.array(z.object({ id: z.string(), count: z.number().int() }));

/** Words of a provision's name or of the query, folded: "Theft Act 1968" → ["theft", "act", "1968"]. */
const words = (s: string) => foldDiacritics(s.toLowerCase()).split(/[^\p{L}\p{N}§]+/u).filter(Boolean);

/**
 * The words of a provision's name and id, once per provision: a text lookup compares the query with every provision
 * the corpus applies (thousands), and a provision's words never change.
 */
const NAME_WORDS = new LruCache<string, ReadonlySet<string>>(20_000);
function nameWords(id: string): ReadonlySet<string> {
  let hit = NAME_WORDS.get(id);
  if (!hit) NAME_WORDS.set(id, (hit = new Set([...words(provisionName(id)), ...words(id)])));
  return hit;
}

export async function lookupLegislation(query: z.infer<typeof LegislationLookupQuery>, identity: Identity): Promise<LegislationLookupBody> {
  const exact = parseProvisionQuery(query.q);
  if (exact) {
    const { data, error } = await identity.db.rpc("legislation_lookup", { p_prefix: exact, p_limit: query.limit });
    if (error) throw fromDatabaseError(error);
    const rows = lookupRows.parse(data);
    // The provision itself first (also when no judgment applies it yet: its page still answers), then what is under it.
    const own = rows.find((r) => r.id === exact) ?? { id: exact, count: 0 };
    const under = rows.filter((r) => r.id !== exact);
    const results = [own, ...under].slice(0, query.limit).map((r) => ({ ...r, name: provisionName(r.id) }));
    return { query: query.q, provision: exact, results };
  }
  // Not a provision as such: every provision the corpus applies whose name holds each word typed ("theft act").
  const wanted = words(query.q);
  const { data, error } = await identity.db.rpc("legislation_lookup", { p_prefix: null, p_limit: 5000 });
  if (error) throw fromDatabaseError(error);
  const results = lookupRows
    .parse(data)
    .filter((r) => {
      const have = nameWords(r.id);
      return wanted.every((w) => have.has(w) || (w.length >= 3 && [...have].some((h) => h.startsWith(w))));
    })
    .slice(0, query.limit)
    .map((r) => ({ ...r, name: provisionName(r.id) }));
  return { query: query.q, provision: null, results };
}

/** `PL/kk/279/§1` from the path's segments (the id holds slashes: a catch-all route). */
export function provisionIdOf(segments: string | string[] | undefined): string {
  const id = (Array.isArray(segments) ? segments.join("/") : (segments ?? "")).trim();
  if (!isCanonicalProvisionId(id)) {
    throw new ApiError("INVALID_PROVISION", `\`${id.slice(0, 100)}\` is not a provision id (e.g. PL/kk/279/§1 or UK/ukpga/1861/100/s18)`, { id: id.slice(0, 100) });
  }
  return id;
}

export const ProvisionQuery = CitingListQuery.extend({ format: z.enum(["json", "csv"]).default("json") });

export interface ProvisionBody extends CitingList {
  id: string;
  name: string;
  /** The provision one level up (its page), null for an act. */
  parent: string | null;
}

/** The most rows a CSV of a provision's judgments carries. */
export const PROVISION_CSV_MAX_ROWS = 5000;

const CSV_COLUMNS = ["id", "case_number", "title", "court_name", "decision_date", "jurisdiction", "outcome", "cited_by_count", "references"] as const;

export async function provision(segments: string | string[] | undefined, q: z.infer<typeof ProvisionQuery>, identity: Identity): Promise<ProvisionBody | Response> {
  const id = provisionIdOf(segments);
  const parent = provisionAncestors(id)[0] ?? null;
  if (q.format === "csv") {
    // The one export module (CSV conventions, formula guard), codes as headers like the JSON keys.
    const list = await citingJudgments(id, q, identity, PROVISION_CSV_MAX_ROWS);
    const items = list?.items ?? [];
    const columns = CSV_COLUMNS.map((code) => ({ code, value: (it: CitingItem) => it[code] }));
    return exportResponse(
      { columns, pages: onePage(items), expectedRows: items.length },
      { format: "csv", headers: "codes", locale: "en", fileName: id },
    );
  }
  const list = await citingJudgments(id, q, identity);
  const empty: CitingList = { total: 0, by_year: [], by_outcome: [], items: [], limit: q.limit, offset: q.offset };
  return { id, name: provisionName(id), parent, ...(list ?? empty) };
}
