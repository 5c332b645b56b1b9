/**
 * The citation graph in Postgres (migration 20261207700000): extract every judgment's references, resolve case
 * references to corpus judgments, replace the judgment's rows of public.judgment_references, recount
 * judgments.cited_by_count. The only file of lib/citations doing I/O; it takes any pg client, so the caller decides
 * the transaction (the CLI runs a rebuild in one, readers see the old graph until it commits).
 *
 * Resolution: a case number or neutral citation resolves by the keys the search index gives judgments
 * (lib/search/citations: `case_number`, `base_neutral_citation_number`); several judgments with the key are told apart
 * by the court and date the reference states, and a reference stays unresolved (external) when they are not. A
 * law-report citation resolves through the parallel citations printed with it ("[2011] EWCA Crim 2028; [2012] 1 Cr App
 * R (S) 9"). A judgment never cites itself.
 */
import { documentCitationKeys } from "@/lib/search/citations";
import type { PgRow } from "@/lib/supabase/pg-rows";
import { foldDiacritics } from "@/lib/text/fold";
import { provisionAncestors } from "./canonical";
import { EXTRACTOR_VERSION, extractReferences } from "./extract";
import type { Jurisdiction, Reference, StructuredReference } from "./types";

export interface Queryable {
  query<R extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount?: number | null }>;
}

export interface Target {
  id: string;
  court: string | null;
  date: string | null;
}

/** Citation key → judgments carrying it. */
export type TargetIndex = Map<string, Target[]>;

/** The keys of every judgment of the corpus (ids, case numbers, neutral citations, court, date: small rows). */
export async function loadTargetIndex(db: Queryable): Promise<TargetIndex> {
  const { rows } = await db.query<PgRow<"judgments", "id" | "case_number" | "base_neutral_citation_number" | "court_name" | "decision_date">>(
    `select id::text, case_number, base_neutral_citation_number, court_name, decision_date::text
       from public.judgments
      where case_number is not null or base_neutral_citation_number is not null`,
  );
  const index: TargetIndex = new Map();
  for (const r of rows) {
    for (const key of documentCitationKeys(r)) {
      const t = { id: r.id, court: r.court_name, date: r.decision_date };
      const list = index.get(key);
      if (list) list.push(t);
      else index.set(key, [t]);
    }
  }
  return index;
}

/** Court level and seat of a court as written ("Sądu Najwyższego", "SA w Krakowie", "Sąd Rejonowy w Toruniu"). */
function courtSignature(court: string): { level: string | null; seat: string | null } {
  const f = foldDiacritics(court);
  const level = /najwyzsz|\bsn\b/.test(f)
    ? "supreme"
    : /apelacyjn|\bsa\b/.test(f)
      ? "appeal"
      : /okregow|\bso\b/.test(f)
        ? "regional"
        : /rejonow|\bsr\b/.test(f)
          ? "district"
          : /trybunal|\btk\b/.test(f)
            ? "tribunal"
            : /administracyjn|\bnsa\b|\bwsa\b/.test(f)
              ? "administrative"
              : null;
  // The seat's first four letters survive declension ("w Toruniu" / "w Toruń", "w Krakowie" / "w Kraków").
  const seat = /\bwe? ([a-z]{4})/.exec(f)?.[1] ?? null;
  return { level, seat };
}

function courtMatches(written: string, courtName: string | null): boolean {
  if (!courtName) return false;
  const a = courtSignature(written);
  const b = courtSignature(courtName);
  if (a.level && b.level && a.level !== b.level) return false;
  if (a.seat && b.seat && a.seat !== b.seat) return false;
  return a.level !== null || a.seat !== null;
}

/** The one corpus judgment a case reference names, or null (not in the corpus, or ambiguous). */
export function resolveCaseRef(ref: Reference, index: TargetIndex, sourceId: string): string | null {
  if (ref.kind !== "case" || !ref.canonicalId) return null;
  let candidates = (index.get(ref.canonicalId) ?? []).filter((t) => t.id !== sourceId);
  // A stated court must fit (Polish case numbers repeat across courts); a stated date narrows further.
  if (ref.court && ref.jurisdiction === "PL") candidates = candidates.filter((t) => courtMatches(ref.court as string, t.court));
  if (candidates.length > 1 && ref.date) {
    const sameDay = candidates.filter((t) => t.date === ref.date);
    if (sameDay.length > 0) candidates = sameDay;
  }
  const ids = new Set(candidates.map((t) => t.id));
  return ids.size === 1 ? candidates[0].id : null;
}

export interface ResolvedReference extends Reference {
  targetId: string | null;
  /**
   * False for a provision the judgment names only to record an acquittal of it ("uniewinnił oskarżonego od
   * popełnienia czynu z art. 279 § 1 k.k.", "acquitted of an offence under section 18"): it is kept as a reference,
   * but the judgment does not apply it (its `cites`, provision pages and provision searches leave it out).
   */
  applied?: boolean;
}

/** An acquittal verb, then no conviction word, up to the reference (within its sentence). */
const ACQUITTAL_BEFORE = /(?:uniewinni\p{L}*|acquitt\p{L}*)(?:(?!skaz|convict)[^.;])*$/iu;

/** Whether the words of the reference's sentence before it record an acquittal of it. */
export function acquittalMention(text: string, start: number | null): boolean {
  if (start === null || start <= 0) return false;
  const before = text.slice(Math.max(0, start - 240), start);
  return ACQUITTAL_BEFORE.test(before);
}

/** Resolve every case reference of one judgment; report citations follow the parallel citations of their group. */
export function resolveReferences(refs: readonly Reference[], index: TargetIndex, sourceId: string): ResolvedReference[] {
  const out: ResolvedReference[] = refs.map((r) => ({ ...r, targetId: resolveCaseRef(r, index, sourceId) }));
  const byGroup = new Map<number, string>();
  for (const r of out) if (r.targetId && r.group != null) byGroup.set(r.group, r.targetId);
  for (const r of out) {
    if (!r.targetId && r.kind === "case" && r.group != null) r.targetId = byGroup.get(r.group) ?? null;
    r.resolved = r.targetId !== null;
  }
  return out;
}

export interface SourceJudgment {
  id: string;
  full_text: string;
  jurisdiction: Jurisdiction;
  case_number: string | null;
  base_neutral_citation_number: string | null;
  /** Structured references its source marks (an importer's), when it stores them. */
  structured?: readonly StructuredReference[];
}

/** A judgment's references, resolved. */
export function judgmentReferences(j: SourceJudgment, index: TargetIndex): ResolvedReference[] {
  const own = [j.case_number, j.base_neutral_citation_number].filter((x): x is string => !!x);
  const refs = extractReferences(j.full_text, { jurisdiction: j.jurisdiction, ownCitations: own, structured: j.structured });
  const resolved = resolveReferences(refs, index, j.id);
  for (const r of resolved) if (r.kind !== "case" && acquittalMention(j.full_text, r.start)) r.applied = false;
  return resolved;
}

const clip = (s: string | null | undefined, n: number) => (s == null ? null : s.length > n ? s.slice(0, n) : s);

/**
 * What a judgment cites as the search index filters it (`judgments.cites`): each provision with its ancestors, so a
 * filter on an article finds the judgments citing one of its paragraphs, and each cited corpus judgment's id. Sorted,
 * so an unchanged judgment writes nothing.
 */
export function citesOf(refs: readonly ResolvedReference[]): string[] {
  const out = new Set<string>();
  for (const r of refs) {
    if (r.kind === "case") {
      if (r.targetId) out.add(r.targetId);
    } else if (r.canonicalId && r.applied !== false) {
      out.add(r.canonicalId);
      for (const a of provisionAncestors(r.canonicalId)) out.add(a);
    }
  }
  return [...out].sort();
}

/** One judgment_references row per reference, in the shape of writeReferenceRows' recordset. */
function referenceRows(refs: ReadonlyMap<string, readonly ResolvedReference[]>) {
  return [...refs].flatMap(([source, list]) =>
    list.map((r, ordinal) => ({
      source,
      ordinal,
      kind: r.kind,
      jurisdiction: r.jurisdiction,
      origin: r.origin,
      raw_text: clip(r.text, 2000) ?? "",
      span_start: r.start,
      span_end: r.end,
      canonical_id: clip(r.canonicalId, 300),
      target: r.targetId,
      court: clip(r.court, 300),
      cited_date: r.date ?? null,
      case_name: clip(r.caseName, 500),
      citation_group: r.group ?? null,
    })),
  );
}

/**
 * Replace the judgment_references rows of the given judgments with `refs` (one delete, one insert), leaving
 * judgments.cites alone: an importer writes cites in the same statement as the judgment itself (lib/import/upsert.ts),
 * so the row is not rewritten a second time.
 */
export async function writeReferenceRows(db: Queryable, sourceIds: readonly string[], refs: ReadonlyMap<string, readonly ResolvedReference[]>): Promise<number> {
  await db.query("delete from public.judgment_references where source_judgment_id = any ($1::uuid[])", [sourceIds]);
  const rows = referenceRows(refs);
  if (rows.length === 0) return 0;
  await db.query(
    `insert into public.judgment_references
       (source_judgment_id, ordinal, kind, jurisdiction, origin, raw_text, span_start, span_end, canonical_id,
        target_judgment_id, court, cited_date, case_name, citation_group, extractor_version)
     select x.source, x.ordinal, x.kind, x.jurisdiction, x.origin, x.raw_text, x.span_start, x.span_end, x.canonical_id,
            x.target, x.court, x.cited_date, x.case_name, x.citation_group, $2
       from jsonb_to_recordset($1::jsonb) as x(source uuid, ordinal integer, kind text, jurisdiction text, origin text,
            raw_text text, span_start integer, span_end integer, canonical_id text, target uuid, court text,
            cited_date date, case_name text, citation_group integer)`,
    [JSON.stringify(rows), EXTRACTOR_VERSION],
  );
  return rows.length;
}

/** Replace the rows of the given judgments with `refs` and set their judgments.cites to match. */
export async function writeReferences(db: Queryable, sourceIds: readonly string[], refs: ReadonlyMap<string, readonly ResolvedReference[]>): Promise<number> {
  // judgments.cites follows the rows; only changed arrays are written (a write moves updated_at: the sync reindexes).
  await db.query(
    `update public.judgments j set cites = x.cites
       from jsonb_to_recordset($1::jsonb) as x(id uuid, cites text[])
      where j.id = x.id and j.cites is distinct from x.cites`,
    [JSON.stringify(sourceIds.map((id) => ({ id, cites: citesOf(refs.get(id) ?? []) })))],
  );
  return writeReferenceRows(db, sourceIds, refs);
}

/**
 * Put judgments into a loaded index under their keys (replacing what the index held for their ids under those keys),
 * so references to them resolve before they are committed. Answers the undo, for a batch that rolls back.
 */
export function addTargets(index: TargetIndex, judgments: readonly (Target & { case_number: string | null; base_neutral_citation_number: string | null })[]): () => void {
  const undo: { key: string; before: Target[] | undefined }[] = [];
  for (const j of judgments) {
    for (const key of documentCitationKeys({ case_number: j.case_number, base_neutral_citation_number: j.base_neutral_citation_number })) {
      const before = index.get(key);
      undo.push({ key, before });
      index.set(key, [...(before ?? []).filter((t) => t.id !== j.id), { id: j.id, court: j.court, date: j.date }]);
    }
  }
  return () => {
    for (const { key, before } of undo.reverse()) {
      if (before) index.set(key, before);
      else index.delete(key);
    }
  };
}

export interface RebuildOptions {
  /** Rebuild these citing judgments only (their rows, and the counts of what they cite and cited); all when absent. */
  ids?: readonly string[];
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
  /** The corpus' citation keys when the caller has them loaded already (an import resolves batch after batch). */
  index?: TargetIndex;
}

export interface RebuildResult {
  judgments: number;
  references: number;
  resolved: number;
  /** Judgments whose cited_by_count changed. */
  countsChanged: number;
}

/**
 * Recompute the graph: every judgment's references (or those of `ids`), then the counts. Idempotent: a second run
 * over unchanged judgments writes the same rows and changes no count.
 */
export async function rebuildCitations(db: Queryable, options: RebuildOptions = {}): Promise<RebuildResult> {
  const batchSize = options.batchSize ?? 200;
  const index = options.index ?? (await loadTargetIndex(db));
  const scoped = options.ids ? [...options.ids] : null;
  const before = scoped
    ? (await db.query<{ t: string }>("select distinct target_judgment_id::text as t from public.judgment_references where source_judgment_id = any ($1::uuid[]) and target_judgment_id is not null", [scoped])).rows.map((r) => r.t)
    : [];
  const total = scoped
    ? scoped.length
    : Number((await db.query<{ n: string }>("select count(*)::text as n from public.judgments")).rows[0].n);
  const result: RebuildResult = { judgments: 0, references: 0, resolved: 0, countsChanged: 0 };
  const touched = new Set<string>(before);
  let after: string | null = null;
  for (;;) {
    const params: unknown[] = [batchSize];
    let where = "";
    if (scoped) {
      params.push(scoped);
      where = `where id = any ($${params.length}::uuid[])`;
    }
    if (after) {
      params.push(after);
      where += `${where ? " and" : "where"} id > $${params.length}::uuid`;
    }
    // jurisdiction is a text column with a check (PL|UK): the generated type says string, the check says which.
    const { rows } = await db.query<PgRow<"judgments", "id" | "full_text" | "case_number" | "base_neutral_citation_number"> & Pick<SourceJudgment, "jurisdiction">>(
      `select id::text, full_text, jurisdiction, case_number, base_neutral_citation_number
         from public.judgments ${where} order by id limit $1`,
      params,
    );
    if (rows.length === 0) break;
    const refs = new Map<string, ResolvedReference[]>();
    for (const j of rows) {
      const list = judgmentReferences(j, index);
      refs.set(j.id, list);
      for (const r of list) {
        if (r.targetId) {
          touched.add(r.targetId);
          result.resolved++;
        }
      }
    }
    result.references += await writeReferences(
      db,
      rows.map((r) => r.id),
      refs,
    );
    result.judgments += rows.length;
    options.onProgress?.(result.judgments, total);
    after = rows[rows.length - 1].id;
  }
  const { rows: changed } = await db.query<{ n: number }>("select public.judgment_cited_by_refresh($1::uuid[]) as n", [scoped ? [...touched] : null]);
  result.countsChanged = changed[0]?.n ?? 0;
  return result;
}

/**
 * Keep the graph current after judgments were written (import, ingest): their own references, and those of judgments
 * whose unresolved case references name one of them (a newly imported judgment resolves what cited it before).
 */
export async function refreshCitations(db: Queryable, ids: readonly string[]): Promise<RebuildResult> {
  if (ids.length === 0) return { judgments: 0, references: 0, resolved: 0, countsChanged: 0 };
  const { rows } = await db.query<PgRow<"judgments", "id" | "case_number" | "base_neutral_citation_number">>(
    "select id::text, case_number, base_neutral_citation_number from public.judgments where id = any ($1::uuid[])",
    [ids],
  );
  const citers = await unresolvedCiters(db, rows.flatMap((r) => documentCitationKeys(r)));
  return rebuildCitations(db, { ids: [...new Set([...ids, ...citers])] });
}

/** Judgments with an unresolved case reference naming one of `keys` (they may resolve now that a judgment carries it). */
export async function unresolvedCiters(db: Queryable, keys: readonly string[]): Promise<string[]> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `select distinct source_judgment_id::text as id from public.judgment_references
      where kind = 'case' and target_judgment_id is null and canonical_id = any ($1::text[])`,
    [unique],
  );
  return rows.map((r) => r.id);
}
