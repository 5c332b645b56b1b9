/** Events of a line: drift of its centroid over time, outcome reversals, new members; detected and stored by admins. */
import { z } from "zod";
import { config } from "@/lib/config";
import type { Json } from "@/lib/supabase/database.types";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { fromDatabaseError } from "@/lib/errors";
import { clusterVectors, cosine } from "@/lib/analysis/kmeans";
import type { Embedder } from "@/lib/search/types";
import { recordAdminAction } from "@/lib/backend/admin-audit";
import type { Identity } from "@/lib/backend/identity";
import { getLine, overview } from "./read";
import { EventRow, type JudgmentRow, centroidOf, embedRows, judgmentRows, round, strs, tally, unit } from "./rows";
import type { EventKind, LineDetail, LineEvent } from "./types";

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
