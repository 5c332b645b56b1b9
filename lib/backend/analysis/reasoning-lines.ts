/**
 * Reasoning lines (issue 16 item 3; lifecycle in docs/analytics.md). Discovery clusters the judgments' vectors from
 * the search engine's own embedder (the text and embedder lib/search indexes with: `embeddingText`, getSearch()) with
 * seeded k-means, labels clusters by TF-IDF, and stores nothing. Lines, members and events are global rows behind
 * RLS (supabase/migrations/20261125140000_reasoning_lines.sql): reads for any signed-in user, writes for admins only,
 * always through the caller's own client so the database applies its own gate as well as the web tier's.
 */
import { generateText, type LanguageModel } from "ai";
import { z } from "zod";
import { config } from "@/lib/config";
import type { Json } from "@/lib/supabase/database.types";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { ApiError, fromDatabaseError, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/schema/uuid";
import { analysisText, nameTerms } from "@/lib/analysis/document";
import { clusterLabels, clusterVectors, cosine, similarityEdges } from "@/lib/analysis/kmeans";
import { seededSample } from "@/lib/analysis/sample";
import { analysisTokens } from "@/lib/analysis/text";
import { buildTfidf } from "@/lib/analysis/tfidf";
import { embeddingText, isoDate, toIndexDocument } from "@/lib/search/document";
import { foldDiacritics } from "@/lib/text/fold";
import { getSearch } from "@/lib/search/engine";
import type { Embedder } from "@/lib/search/types";
import { languageModel, llmConfigured } from "@/lib/llm/provider";
import { llmCallSettings } from "@/lib/llm/call";
import { logger } from "@/lib/logger";
import { recordAdminAction } from "@/lib/backend/admin-audit";
import type { Identity } from "@/lib/backend/identity";
import { parseFilters, refuseCollectionIds } from "@/lib/backend/extractions/filters";
import type { CreateLineRequest, DiscoverRequest } from "@/lib/schema/requests/analysis-lines";

// ---------------------------------------------------------------- shapes

export type MemberRole = "origin" | "follows" | "distinguishes" | "departs";
export type EventKind = "drift" | "split" | "merge" | "reversal" | "new_member";

export interface ReasoningLine {
  id: string;
  label: string;
  description: string | null;
  keywords: string[];
  legal_question: string | null;
  status: "active" | "merged" | "deleted";
  created_at: string;
  updated_at: string;
  member_count: number;
  first_date: string | null;
  last_date: string | null;
}

export interface LineMember {
  judgment_id: string;
  position: number;
  decision_date: string | null;
  similarity: number | null;
  role: MemberRole;
  case_number: string | null;
  title: string | null;
  jurisdiction: string;
  court_name: string | null;
}

export interface LineEvent {
  id: string;
  kind: EventKind;
  at: string;
  details: Record<string, unknown>;
  detected_by: string;
}

export type LineDetail = ReasoningLine & { members: LineMember[]; events: LineEvent[] };

export interface LinePage {
  lines: ReasoningLine[];
  total: number;
  page: number;
  limit: number;
  has_more: boolean;
}

export interface CandidateMember {
  judgment_id: string;
  case_number: string | null;
  title: string | null;
  jurisdiction: string | null;
  decision_date: string | null;
  /** Cosine similarity to the cluster centroid. */
  similarity: number;
}

export interface CandidateLine {
  id: number;
  label: string;
  terms: { term: string; weight: number }[];
  size: number;
  cohesion: number;
  /** Keywords and legal topics shared by at least half of the members (at least two). */
  shared_keywords: { value: string; count: number }[];
  shared_legislation: { value: string; count: number }[];
  members: CandidateMember[];
  edges: { source: string; target: string; similarity: number }[];
  first_date: string | null;
  last_date: string | null;
}

export interface DiscoverResult {
  candidates: CandidateLine[];
  params: { sample_size: number; num_clusters: number; seed: number; text_query: string | null; edge_threshold: number };
  sample_n: number;
  corpus_size: number;
  embedder: { id: string; label: string; kind: "lexical" | "model" };
  mode: "no-model";
  computed_ms: number;
}

/** The embedder the search engine indexes with (routes pass it; tests and benches may pass their own). */
export const engineEmbedder = (): Embedder => getSearch().embedder;

/** The line id of a path: only a UUID reaches the database; anything else is a plain 404 (spec: the access table). */
export function lineId(raw: string | undefined): string {
  if (!raw || !isUuid(raw)) throw notFound("Reasoning line");
  return raw.toLowerCase();
}

/** withRoute's `params` check of `/reasoning-lines/{id}/…`: the id checked before a write's quota is counted. */
export const lineParams = (raw: Record<string, string>): Record<string, string> => ({ ...raw, id: lineId(raw.id) });

// ---------------------------------------------------------------- reading rows

const LineRow = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  keywords: z.array(z.string()),
  legal_question: z.string().nullable(),
  status: z.enum(["active", "merged", "deleted"]),
  created_at: z.string(),
  updated_at: z.string(),
  member_count: z.coerce.number(),
  first_date: z.string().nullable(),
  last_date: z.string().nullable(),
});
const MemberRow = z.object({
  judgment_id: z.string(),
  position: z.number(),
  decision_date: z.string().nullable(),
  similarity: z.number().nullable(),
  role: z.enum(["origin", "follows", "distinguishes", "departs"]),
  case_number: z.string().nullable(),
  title: z.string().nullable(),
  jurisdiction: z.string(),
  court_name: z.string().nullable(),
});
const EventRow = z.object({
  id: z.string(),
  kind: z.enum(["drift", "split", "merge", "reversal", "new_member"]),
  at: z.string(),
  details: z.record(z.string(), z.unknown()),
  detected_by: z.string(),
});
const DetailRow = LineRow.extend({ members: z.array(MemberRow), events: z.array(EventRow) });
const OverviewRow = LineRow.extend({
  members: z.array(z.object({ judgment_id: z.string(), decision_date: z.string().nullable(), case_number: z.string().nullable() })),
});
type Overview = z.infer<typeof OverviewRow>;

/** A judgment as analysis reads it (reasoning_judgments: the head of the full text only). */
type JudgmentRow = Record<string, unknown> & { id: string };

async function judgmentRows(db: DbClient, ids: readonly string[]): Promise<JudgmentRow[]> {
  if (ids.length === 0) return [];
  const { data, error } = await db.rpc("reasoning_judgments", { p_ids: [...ids] });
  if (error) throw fromDatabaseError(error);
  const byId = new Map<string, JudgmentRow>();
  for (const r of data ?? []) {
    if (typeof r === "object" && r !== null && !Array.isArray(r) && typeof r.id === "string") byId.set(r.id, r as JudgmentRow);
  }
  // Input order, so a seeded sample stays in its seeded order.
  return ids.map((id) => byId.get(id)).filter((r): r is JudgmentRow => r !== undefined);
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : []);

/** The vectors the search engine holds for these judgments: the same text, the same embedder. */
async function embedRows(embedder: Embedder, rows: readonly JudgmentRow[]): Promise<number[][]> {
  if (rows.length === 0) return [];
  return embedder.embedDocuments(rows.map((r) => embeddingText(toIndexDocument(r), str(r.full_text) ?? "")));
}

function unit(v: readonly number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return n > 0 ? v.map((x) => x / n) : [...v];
}

function centroidOf(vectors: readonly (readonly number[])[]): number[] {
  const dim = vectors[0]?.length ?? 0;
  const c = new Array<number>(dim).fill(0);
  for (const v of vectors) {
    const u = unit(v);
    for (let d = 0; d < dim; d++) c[d] += u[d] / vectors.length;
  }
  return c;
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

function tally(values: Iterable<string>): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

/** Values shared by at least half of the members (and at least two), most shared first. */
function shared(rows: readonly JudgmentRow[], pick: (r: JudgmentRow) => string[]): { value: string; count: number }[] {
  const counts = tally(rows.flatMap((r) => [...new Set(pick(r))]));
  const min = Math.max(2, Math.ceil(rows.length / 2));
  return [...counts]
    .filter(([, c]) => c >= min)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 15)
    .map(([value, count]) => ({ value, count }));
}

const byDate = (a: { decision_date: string | null; id?: string }, b: { decision_date: string | null; id?: string }) =>
  (a.decision_date ?? "9999") < (b.decision_date ?? "9999") ? -1 : (a.decision_date ?? "9999") > (b.decision_date ?? "9999") ? 1 : 0;

// ---------------------------------------------------------------- discover (read-only)

/** POST /api/reasoning-lines/discover: candidate lines over a seeded sample of the cohort; nothing is stored. */
export async function discoverLines(db: DbClient, embedder: Embedder, req: DiscoverRequest): Promise<DiscoverResult> {
  const started = performance.now();
  // As the aggregate: no collection ownership check here, so collection_ids is refused (D-10).
  refuseCollectionIds(req.filters);
  const filters = parseFilters(req.filters ?? {});
  const textQuery = req.text_query?.trim() || null;
  const { data, error } = await db.rpc("list_extracted_filter_matches", { p_filters: jsonArg(filters), p_text_query: textQuery ?? "" });
  if (error) throw fromDatabaseError(error);
  const cohort = (data ?? []).map((r) => ({ id: r.id }));
  // The aggregate's seeded sample (lib/analysis/sample.ts), so the same request and seed read the same judgments.
  const sample = seededSample(cohort, req.sample_size, req.seed);
  const rows = await judgmentRows(
    db,
    sample.map((s) => s.id),
  );
  const vectors = await embedRows(embedder, rows);
  const unitVectors = vectors.map(unit);
  // Centred on the sample's mean before clustering: every judgment of one court system shares its boilerplate (the
  // header the engine embeds), which otherwise dominates the cosine and makes k-means split by jurisdiction only
  // (measured on the demo slice: at k = 6 the planted line's cluster held 108 judgments uncentred, 46 centred).
  const mean = centroidOf(unitVectors);
  const clustering = clusterVectors(
    unitVectors.map((v) => v.map((x, d) => x - mean[d])),
    { k: req.num_clusters, seed: req.seed },
  );
  const tfidf = buildTfidf(rows.map((r) => analysisTokens(analysisText(r), undefined, nameTerms(r))));
  const labels = clusterLabels(clustering, tfidf, 6);
  const threshold = config().REASONING_EDGE_THRESHOLD_PCT / 100;
  const candidates = clustering.clusters.map((c, i): CandidateLine => {
    // Similarities are reported in the engine's own space (uncentred cosine), as search would see them.
    const centroid = centroidOf(c.members.map((m) => unitVectors[m]));
    const members = c.members
      .map((m): CandidateMember => {
        const r = rows[m];
        return {
          judgment_id: r.id,
          case_number: str(r.case_number),
          title: str(r.title),
          jurisdiction: str(r.jurisdiction),
          decision_date: isoDate(r.decision_date) ?? null,
          similarity: round(cosine(unitVectors[m], centroid)),
        };
      })
      .sort((a, b) => byDate(a, b) || (a.judgment_id < b.judgment_id ? -1 : 1));
    const memberRows = c.members.map((m) => rows[m]);
    const edges = similarityEdges(unitVectors, threshold, c.members).map((e) => ({
      source: rows[e.source].id,
      target: rows[e.target].id,
      similarity: e.similarity,
    }));
    return {
      id: c.id,
      label: labels[i]?.label ?? "",
      terms: labels[i]?.terms ?? [],
      size: c.members.length,
      cohesion: round(c.members.reduce((a, m) => a + cosine(unitVectors[m], centroid), 0) / c.members.length),
      shared_keywords: shared(memberRows, (r) => [...strs(r.keywords), ...strs(r.legal_topics), ...strs(r.base_keywords)]),
      shared_legislation: shared(memberRows, (r) => strs(r.cited_legislation)),
      members,
      edges,
      first_date: members[0]?.decision_date ?? null,
      last_date: members.at(-1)?.decision_date ?? null,
    };
  });
  return {
    candidates,
    params: { sample_size: req.sample_size, num_clusters: req.num_clusters, seed: req.seed, text_query: textQuery, edge_threshold: threshold },
    sample_n: rows.length,
    corpus_size: cohort.length,
    embedder: { id: embedder.id, label: embedder.label, kind: embedder.kind },
    mode: "no-model",
    computed_ms: Math.round(performance.now() - started),
  };
}

// ---------------------------------------------------------------- reads

export async function listLines(db: DbClient, q: { page: number; limit: number; includeDeleted: boolean }): Promise<LinePage> {
  const { data, error } = await db.rpc("reasoning_lines_list", {
    p_limit: q.limit,
    p_offset: (q.page - 1) * q.limit,
    p_include_deleted: q.includeDeleted,
  });
  if (error) throw fromDatabaseError(error);
  const parsed = z.object({ total: z.coerce.number(), lines: z.array(LineRow) }).parse(data);
  return { lines: parsed.lines, total: parsed.total, page: q.page, limit: q.limit, has_more: q.page * q.limit < parsed.total };
}

export async function getLine(db: DbClient, id: string, includeDeleted = false): Promise<LineDetail> {
  const { data, error } = await db.rpc("reasoning_line_get", { p_id: id, p_include_deleted: includeDeleted });
  if (error) throw fromDatabaseError(error);
  if (data === null) throw notFound("Reasoning line");
  return DetailRow.parse(data);
}

export interface TimelineEntry {
  date: string | null;
  type: "member" | "event";
  member?: LineMember;
  event?: LineEvent;
}

export interface LineTimeline {
  line_id: string;
  label: string;
  status: ReasoningLine["status"];
  entries: TimelineEntry[];
}

/** GET /{id}/timeline: members by decision date, with the line's events placed at the date they concern. */
export async function lineTimeline(db: DbClient, id: string, includeDeleted = false): Promise<LineTimeline> {
  const line = await getLine(db, id, includeDeleted);
  const dateOfMember = new Map(line.members.map((m) => [m.judgment_id, m.decision_date]));
  const entries: TimelineEntry[] = [
    ...line.members.map((m): TimelineEntry => ({ date: m.decision_date, type: "member", member: m })),
    ...line.events.map((e): TimelineEntry => {
      const about = typeof e.details.judgment_id === "string" ? dateOfMember.get(e.details.judgment_id) : undefined;
      return { date: about ?? e.at.slice(0, 10), type: "event", event: e };
    }),
  ];
  // Stable: by date, members before events of the same date.
  entries.sort((a, b) => byDate({ decision_date: a.date }, { decision_date: b.date }) || (a.type === b.type ? 0 : a.type === "member" ? -1 : 1));
  return { line_id: line.id, label: line.label, status: line.status, entries };
}

async function overview(db: DbClient, includeDeleted = false): Promise<Overview[]> {
  const { data, error } = await db.rpc("reasoning_lines_overview", { p_include_deleted: includeDeleted });
  if (error) throw fromDatabaseError(error);
  return z.array(OverviewRow).parse(data);
}

const foldKey = (s: string) => foldDiacritics(s).toLowerCase().trim();

export interface RelatedLine {
  id: string;
  label: string;
  score: number;
  shared_members: number;
  shared_keywords: string[];
}

/** GET /{id}/related: lines sharing members (Jaccard, weight 0.7) or keywords (Jaccard, 0.3), best first. */
export async function relatedLines(db: DbClient, id: string, includeDeleted = false): Promise<{ line_id: string; related: RelatedLine[] }> {
  const all = await overview(db, includeDeleted);
  const me = all.find((l) => l.id === id);
  if (!me) throw notFound("Reasoning line");
  const myMembers = new Set(me.members.map((m) => m.judgment_id));
  const myKeywords = new Set(me.keywords.map(foldKey));
  const jaccard = (a: Set<string>, b: Set<string>, inter: number) => (a.size + b.size - inter > 0 ? inter / (a.size + b.size - inter) : 0);
  const related = all
    .filter((l) => l.id !== id)
    .map((l): RelatedLine => {
      const members = new Set(l.members.map((m) => m.judgment_id));
      const keywords = new Set(l.keywords.map(foldKey));
      const sharedMembers = [...members].filter((m) => myMembers.has(m)).length;
      const sharedKeywords = l.keywords.filter((k) => myKeywords.has(foldKey(k)));
      const score = 0.7 * jaccard(myMembers, members, sharedMembers) + 0.3 * jaccard(myKeywords, keywords, new Set(sharedKeywords.map(foldKey)).size);
      return { id: l.id, label: l.label, score: round(score), shared_members: sharedMembers, shared_keywords: sharedKeywords };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return { line_id: id, related };
}

export interface LineSearchHit {
  line: ReasoningLine;
  score: number;
  matched: ("label" | "keywords" | "legal_question" | "description" | "case_number")[];
}

/** POST /search {q}: over labels, keywords, the legal question, descriptions and members' case numbers. */
export async function searchLines(db: DbClient, q: string): Promise<{ query: string; lines: LineSearchHit[] }> {
  const needle = foldKey(q);
  const has = (s: string | null) => s !== null && foldKey(s).includes(needle);
  const hits: LineSearchHit[] = [];
  for (const l of await overview(db)) {
    const checks: [LineSearchHit["matched"][number], boolean, number][] = [
      ["label", has(l.label), 3],
      ["keywords", l.keywords.some(has), 2],
      ["case_number", l.members.some((m) => has(m.case_number)), 2],
      ["legal_question", has(l.legal_question), 1],
      ["description", has(l.description), 1],
    ];
    const matched = checks.filter((c) => c[1]).map((c) => c[0]);
    const score = checks.reduce((s, c) => s + (c[1] ? c[2] : 0), 0);
    if (score > 0) {
      const { members: _members, ...line } = l;
      hits.push({ line, score, matched });
    }
  }
  hits.sort((a, b) => b.score - a.score || (a.line.created_at < b.line.created_at ? 1 : -1));
  return { query: q, lines: hits };
}

export interface LineDag {
  nodes: { id: string; label: string; status: ReasoningLine["status"]; first_date: string | null; last_date: string | null; member_count: number }[];
  edges: { source: string; target: string; cites: number; shared_members: number }[];
}

/**
 * GET /dag: lines as nodes; an edge from an older line to a newer one when a member of one cites a member of the
 * other by case number, or when they share judgments. Edges always run from the earlier first decision (ties by id),
 * a total order, so the graph is acyclic whatever cites what.
 */
export async function linesDag(db: DbClient): Promise<LineDag> {
  const [all, cites] = await Promise.all([overview(db), db.rpc("reasoning_line_citations", { p_include_deleted: false })]);
  if (cites.error) throw fromDatabaseError(cites.error);
  const order = (l: Overview) => `${l.first_date ?? "9999-99-99"}|${l.id}`;
  const byId = new Map(all.map((l) => [l.id, l]));
  const edges = new Map<string, { source: string; target: string; cites: number; shared_members: number }>();
  const edge = (a: string, b: string) => {
    const [la, lb] = [byId.get(a), byId.get(b)];
    if (!la || !lb) return null;
    const [s, t] = order(la) <= order(lb) ? [la.id, lb.id] : [lb.id, la.id];
    const key = `${s}>${t}`;
    let e = edges.get(key);
    if (!e) edges.set(key, (e = { source: s, target: t, cites: 0, shared_members: 0 }));
    return e;
  };
  for (const c of cites.data ?? []) {
    const e = edge(c.cited_line, c.citing_line);
    if (e) e.cites += Number(c.citations);
  }
  for (let i = 0; i < all.length; i++) {
    const mine = new Set(all[i].members.map((m) => m.judgment_id));
    for (let j = i + 1; j < all.length; j++) {
      const n = all[j].members.filter((m) => mine.has(m.judgment_id)).length;
      if (n > 0) edge(all[i].id, all[j].id)!.shared_members += n;
    }
  }
  return {
    nodes: all.map((l) => ({ id: l.id, label: l.label, status: l.status, first_date: l.first_date, last_date: l.last_date, member_count: l.member_count })),
    edges: [...edges.values()].sort((a, b) => (a.source + a.target < b.source + b.target ? -1 : 1)),
  };
}

// ---------------------------------------------------------------- admin writes

/** POST /create: store a line (admin). Similarities to the line's centroid are computed when not given. */
export async function createLine(db: DbClient, identity: Identity, embedder: Embedder, req: CreateLineRequest): Promise<ReasoningLine> {
  const members = req.members ?? (req.judgment_ids ?? []).map((judgment_id) => ({ judgment_id, similarity: undefined, role: undefined }));
  const ids = [...new Set(members.map((m) => m.judgment_id.toLowerCase()))];
  if (members.some((m) => m.similarity === undefined)) {
    const rows = await judgmentRows(db, ids);
    if (rows.length !== ids.length) throw new ApiError("VALIDATION_ERROR", "Some judgment ids do not exist.", { fields: [{ field: "judgment_ids", message: "unknown judgment id" }] });
    const vectors = await embedRows(embedder, rows);
    const centroid = centroidOf(vectors);
    const sim = new Map(rows.map((r, i) => [r.id, round(cosine(unit(vectors[i]), centroid))]));
    for (const m of members) m.similarity ??= sim.get(m.judgment_id.toLowerCase());
  }
  const { data, error } = await db.rpc("reasoning_line_create", {
    p_label: req.label,
    p_description: req.description ?? null,
    p_keywords: req.keywords,
    p_legal_question: req.legal_question ?? null,
    p_members: jsonArg(members.map((m) => ({ judgment_id: m.judgment_id, similarity: m.similarity ?? null, role: m.role ?? null }))),
  });
  if (error) throw fromDatabaseError(error);
  const line = LineRow.parse(data);
  await recordAdminAction(db, identity, { action: "reasoning_line.create", targetType: "reasoning_line", targetId: line.id, after: line as unknown as Json });
  return line;
}

/** DELETE /{id}: status → deleted (admin); members and events stay. 404 for a line that is not there (or already deleted). */
export async function deleteLine(db: DbClient, identity: Identity, id: string): Promise<{ id: string; status: "deleted" }> {
  const { data, error } = await db.rpc("reasoning_line_delete", { p_id: id });
  if (error) {
    const e = fromDatabaseError(error);
    throw e.status === 404 ? notFound("Reasoning line") : e;
  }
  const change = z.object({ before: z.string(), after: z.string() }).parse(data);
  await recordAdminAction(db, identity, {
    action: "reasoning_line.delete",
    targetType: "reasoning_line",
    targetId: id,
    before: { status: change.before },
    after: { status: change.after },
  });
  return { id, status: "deleted" };
}

interface PendingEvent {
  line_id: string;
  kind: EventKind;
  details: Record<string, unknown>;
}

/** Store events not stored before (same line, kind and details.key), then audit. */
async function persistEvents(db: DbClient, identity: Identity, events: PendingEvent[], detectedBy: string, existing: Map<string, LineEvent[]>): Promise<LineEvent[]> {
  const fresh = events.filter((e) => !(existing.get(e.line_id) ?? []).some((x) => x.kind === e.kind && x.details.key === e.details.key));
  if (fresh.length === 0) return [];
  const { data, error } = await db.rpc("reasoning_line_add_events", { p_events: jsonArg(fresh), p_detected_by: detectedBy });
  if (error) throw fromDatabaseError(error);
  const stored = z.array(EventRow.extend({ line_id: z.string() })).parse(data);
  await recordAdminAction(db, identity, {
    action: `reasoning_line.${detectedBy}`,
    targetType: "reasoning_line",
    targetId: [...new Set(stored.map((e) => e.line_id))].join(",").slice(0, 200),
    after: { events: stored.map((e) => ({ id: e.id, line_id: e.line_id, kind: e.kind })) } as unknown as Json,
  });
  return stored.map(({ line_id: _l, ...e }) => e);
}

export interface DriftPoint {
  judgment_id: string;
  case_number: string | null;
  decision_date: string | null;
  /** Cosine similarity of the member to the centroid of the members before it (null for the origin). */
  similarity: number | null;
  drift: boolean;
}

export interface DriftAnalysis {
  line_id: string;
  series: DriftPoint[];
  mean: number | null;
  sd: number | null;
  threshold: number | null;
  events: LineEvent[];
  mode: "no-model";
}

/**
 * The drift series of a line: each member (by date) against the centroid of the members before it; a member below
 * mean − k·sd (k = REASONING_DRIFT_SD_X10 / 10, default 1.5) of that series is a drift.
 */
async function driftSeries(db: DbClient, embedder: Embedder, line: LineDetail): Promise<Omit<DriftAnalysis, "events" | "line_id" | "mode">> {
  const rows = await judgmentRows(db, line.members.map((m) => m.judgment_id));
  const vectors = (await embedRows(embedder, rows)).map(unit);
  const sims: (number | null)[] = vectors.map((v, i) => (i === 0 ? null : round(cosine(v, centroidOf(vectors.slice(0, i))))));
  const values = sims.filter((s): s is number => s !== null);
  const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  const sd = mean !== null && values.length > 1 ? Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length) : null;
  const threshold = mean !== null && sd !== null ? mean - (config().REASONING_DRIFT_SD_X10 / 10) * sd : null;
  const series = line.members.map((m, i): DriftPoint => ({
    judgment_id: m.judgment_id,
    case_number: m.case_number,
    decision_date: m.decision_date,
    similarity: sims[i] ?? null,
    drift: threshold !== null && sims[i] !== null && (sims[i] as number) < threshold,
  }));
  return { series, mean: mean === null ? null : round(mean), sd: sd === null ? null : round(sd), threshold: threshold === null ? null : round(threshold) };
}

function driftEvents(lineId: string, d: Awaited<ReturnType<typeof driftSeries>>): PendingEvent[] {
  return d.series
    .filter((p) => p.drift)
    .map((p) => ({
      line_id: lineId,
      kind: "drift" as const,
      details: { key: `drift:${p.judgment_id}`, judgment_id: p.judgment_id, case_number: p.case_number, similarity: p.similarity, mean: d.mean, sd: d.sd, threshold: d.threshold },
    }));
}

/** POST /{id}/drift-analysis (admin): the series, and its drift events persisted. */
export async function driftAnalysis(db: DbClient, identity: Identity, embedder: Embedder, id: string): Promise<DriftAnalysis> {
  const line = await getLine(db, id);
  const d = await driftSeries(db, embedder, line);
  const events = await persistEvents(db, identity, driftEvents(id, d), "drift-analysis", new Map([[id, line.events]]));
  return { line_id: id, ...d, events, mode: "no-model" };
}

/** The most common outcome of a set of members' rows (ties by value), or null. */
function dominantOutcome(rows: readonly JudgmentRow[]): string | null {
  const t = [...tally(rows.flatMap((r) => strs(r.base_appeal_outcome)))].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return t[0]?.[0] ?? null;
}

/**
 * POST /detect-events (admin): for every active line (or those listed) — drift (as drift-analysis); split (k-means
 * with k = 2 over the members gives two groups of ≥ 3 whose centroids' cosine is below the edge threshold); reversal (the
 * dominant appeal outcome of the newest third of members differs from the oldest third's); new_member (a member
 * dated after the line's last detection run); merge (two lines sharing at least half of the smaller one's members:
 * the smaller is absorbed into the other and marked `merged`, docs/analytics.md "Reasoning lines: lifecycle").
 * Each event is stored once (same kind and key are not stored again).
 */
export async function detectEvents(db: DbClient, identity: Identity, embedder: Embedder, lineIds?: string[]): Promise<{ lines: number; events: LineEvent[] }> {
  const all = (await overview(db)).filter((l) => l.status === "active" && (!lineIds || lineIds.includes(l.id)));
  const pending: PendingEvent[] = [];
  const existing = new Map<string, LineEvent[]>();
  for (const l of all) {
    const line = await getLine(db, l.id);
    existing.set(l.id, line.events);
    pending.push(...driftEvents(l.id, await driftSeries(db, embedder, line)));
    const rows = await judgmentRows(db, line.members.map((m) => m.judgment_id));
    // Split: the members fall into two groups of at least 3 whose centroids are less alike than an edge needs.
    if (rows.length >= 6) {
      const vectors = (await embedRows(embedder, rows)).map(unit);
      const two = clusterVectors(vectors, { k: 2, seed: 42 });
      if (two.clusters.length === 2 && two.clusters.every((c) => c.members.length >= 3)) {
        const [a, b] = two.clusters.map((c) => centroidOf(c.members.map((i) => vectors[i])));
        const similarity = round(cosine(a, b));
        if (similarity < config().REASONING_EDGE_THRESHOLD_PCT / 100) {
          const groups = two.clusters.map((c) => c.members.map((i) => rows[i].id).sort());
          const smaller = [...groups].sort((x, y) => x.length - y.length || (x[0] < y[0] ? -1 : 1))[0];
          pending.push({ line_id: l.id, kind: "split", details: { key: `split:${smaller.join(",")}`.slice(0, 2000), groups, similarity } });
        }
      }
    }
    const third = Math.floor(rows.length / 3);
    if (third >= 2) {
      const [early, late] = [dominantOutcome(rows.slice(0, third)), dominantOutcome(rows.slice(-third))];
      if (early && late && early !== late) pending.push({ line_id: l.id, kind: "reversal", details: { key: `reversal:${early}>${late}`, from: early, to: late } });
    }
    const lastRun = line.events.filter((e) => e.detected_by === "detect-events").map((e) => e.at).sort().at(-1);
    for (const m of line.members) {
      if (lastRun && m.decision_date && m.decision_date > lastRun.slice(0, 10)) {
        pending.push({ line_id: l.id, kind: "new_member", details: { key: `new_member:${m.judgment_id}`, judgment_id: m.judgment_id, case_number: m.case_number } });
      }
    }
  }
  // Merge: two active lines sharing at least half of the smaller one's members. The smaller (on a tie the newer: `all`
  // is in creation order) is absorbed: its missing members move into the other, it is marked `merged`, and both lines
  // get a merge event naming the other. An absorbed line takes no further part in this run; the survivor's grown
  // membership is what later pairs are compared with.
  const members = new Map(all.map((l) => [l.id, new Set(l.members.map((m) => m.judgment_id))]));
  const absorbed = new Set<string>();
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const [first, second] = [all[i].id, all[j].id];
      if (absorbed.has(first) || absorbed.has(second)) continue;
      const a = members.get(first)!;
      const b = members.get(second)!;
      const n = [...b].filter((id) => a.has(id)).length;
      const smaller = Math.min(a.size, b.size);
      if (smaller === 0 || n / smaller < 0.5) continue;
      const [into, from] = b.size > a.size ? [second, first] : [first, second];
      const { data, error } = await db.rpc("reasoning_line_merge", { p_into: into, p_from: from });
      if (error) throw fromDatabaseError(error);
      const merged = z.object({ shared_members: z.number(), moved_members: z.number() }).parse(data);
      await recordAdminAction(db, identity, {
        action: "reasoning_line.merge",
        targetType: "reasoning_line",
        targetId: from,
        before: { status: "active" },
        after: { status: "merged", into, ...merged },
      });
      absorbed.add(from);
      for (const id of members.get(from)!) members.get(into)!.add(id);
      const [x, y] = [into, from].sort();
      const key = `merge:${x}:${y}`;
      pending.push({ line_id: into, kind: "merge", details: { key, with_line: from, absorbed: from, ...merged } });
      pending.push({ line_id: from, kind: "merge", details: { key, with_line: into, merged_into: into, ...merged } });
    }
  }
  const events = await persistEvents(db, identity, pending, "detect-events", existing);
  return { lines: all.length, events };
}

export interface OutcomeAnalysis {
  line_id: string;
  members: number;
  overall: { value: string; count: number }[];
  by_year: { year: string; outcomes: { value: string; count: number }[]; members: number }[];
  mode: "no-model" | "model";
  summary: string | null;
}

const sortedCounts = (m: Map<string, number>) =>
  [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([value, count]) => ({ value, count }));

/**
 * POST /{id}/analyze-outcomes (admin): the appeal outcomes of the members (the extracted base field
 * base_appeal_outcome), overall and per year. A summary in words only when a model is configured (llmConfigured());
 * otherwise mode "no-model" and the distribution alone.
 */
export async function analyzeOutcomes(db: DbClient, id: string): Promise<OutcomeAnalysis> {
  const line = await getLine(db, id);
  const rows = await judgmentRows(db, line.members.map((m) => m.judgment_id));
  const overall = tally(rows.flatMap((r) => strs(r.base_appeal_outcome)));
  const years = new Map<string, JudgmentRow[]>();
  for (const r of rows) {
    const y = isoDate(r.decision_date)?.slice(0, 4) ?? "unknown";
    years.set(y, [...(years.get(y) ?? []), r]);
  }
  const by_year = [...years]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([year, rs]) => ({ year, members: rs.length, outcomes: sortedCounts(tally(rs.flatMap((r) => strs(r.base_appeal_outcome)))) }));
  const result: OutcomeAnalysis = { line_id: id, members: rows.length, overall: sortedCounts(overall), by_year, mode: "no-model", summary: null };
  return { ...result, ...(await summariseOutcomes(llmConfigured() ? languageModel() : null, { line: line.label, legal_question: line.legal_question, overall: result.overall, by_year })) };
}

export interface OutcomeSummaryInput {
  line: string;
  legal_question: string | null;
  overall: OutcomeAnalysis["overall"];
  by_year: OutcomeAnalysis["by_year"];
}

/**
 * The words over an outcome distribution: only with a model, from the distribution alone (the numbers are the prompt).
 * A failed, timed-out or empty model answer leaves the deterministic part as it is: mode "no-model", no summary.
 */
export async function summariseOutcomes(model: LanguageModel | null, input: OutcomeSummaryInput): Promise<Pick<OutcomeAnalysis, "mode" | "summary">> {
  if (!model) return { mode: "no-model", summary: null };
  try {
    const { text } = await generateText({
      model,
      system: "You summarise, in two or three plain sentences for a lawyer, how appeal outcomes in a line of criminal judgments changed over time. Use only the numbers given.",
      prompt: JSON.stringify(input),
      ...llmCallSettings({ functionId: "reasoning-lines.analyze-outcomes" }),
    });
    const summary = text.trim();
    return summary ? { mode: "model", summary } : { mode: "no-model", summary: null };
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e) }, "outcome summary: the model call failed; answering without it");
    return { mode: "no-model", summary: null };
  }
}
