/** Reasoning lines read by any signed-in user: the list, one line, its timeline, related lines, search and the DAG. */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { fromDatabaseError, notFound } from "@/lib/errors";
import { foldDiacritics } from "@/lib/text/fold";
import { DetailRow, LineRow, type Overview, OverviewRow, byDate, round } from "./rows";
import type { LineDetail, LineEvent, LineMember, LinePage, ReasoningLine } from "./types";

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

export async function overview(db: DbClient, includeDeleted = false): Promise<Overview[]> {
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
