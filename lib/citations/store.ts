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

/**
 * Signatures already worked out, by court name as written: a case number's candidates are compared with every
 * reference stating a court, and court names are few. Bounded: cleared when full.
 */
const SIGNATURES = new Map<string, { level: string | null; seat: string | null }>();

function signatureOf(court: string): { level: string | null; seat: string | null } {
  let sig = SIGNATURES.get(court);
  if (!sig) {
    sig = courtSignature(court);
    if (SIGNATURES.size >= 10_000) SIGNATURES.clear();
    SIGNATURES.set(court, sig);
  }
  return sig;
}

function courtMatches(written: string, courtName: string | null): boolean {
  if (!courtName) return false;
  const a = signatureOf(written);
  const b = signatureOf(courtName);
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

/** The columns of one public.judgment_references row as arrays (one array per column: a single unnest INSERT). */
interface RowColumns {
  source: string[];
  ordinal: number[];
  kind: string[];
  jurisdiction: string[];
  origin: string[];
  raw_text: string[];
  span_start: (number | null)[];
  span_end: (number | null)[];
  canonical_id: (string | null)[];
  target: (string | null)[];
  court: (string | null)[];
  cited_date: (string | null)[];
  case_name: (string | null)[];
  citation_group: (number | null)[];
}

const emptyColumns = (): RowColumns => ({
  source: [], ordinal: [], kind: [], jurisdiction: [], origin: [], raw_text: [], span_start: [], span_end: [],
  canonical_id: [], target: [], court: [], cited_date: [], case_name: [], citation_group: [],
});

function pushRows(cols: RowColumns, source: string, list: readonly ResolvedReference[]): void {
  list.forEach((r, ordinal) => {
    cols.source.push(source);
    cols.ordinal.push(ordinal);
    cols.kind.push(r.kind);
    cols.jurisdiction.push(r.jurisdiction);
    cols.origin.push(r.origin);
    cols.raw_text.push(clip(r.text, 2000) ?? "");
    cols.span_start.push(r.start);
    cols.span_end.push(r.end);
    cols.canonical_id.push(clip(r.canonicalId, 300));
    cols.target.push(r.targetId);
    cols.court.push(clip(r.court, 300));
    cols.cited_date.push(r.date ?? null);
    cols.case_name.push(clip(r.caseName, 500));
    cols.citation_group.push(r.group ?? null);
  });
}

/**
 * Insert rows given as column arrays: one unnest() per column, parsed as arrays rather than a JSON document per row
 * (the graph of the demo corpus is ~700k rows: the JSON form spent most of its time parsing and building records).
 */
async function insertRows(db: Queryable, cols: RowColumns): Promise<number> {
  const n = cols.source.length;
  if (n === 0) return 0;
  await db.query(
    `insert into public.judgment_references
       (source_judgment_id, ordinal, kind, jurisdiction, origin, raw_text, span_start, span_end, canonical_id,
        target_judgment_id, court, cited_date, case_name, citation_group, extractor_version)
     select x.*, $15
       from unnest($1::uuid[], $2::integer[], $3::text[], $4::text[], $5::text[], $6::text[], $7::integer[], $8::integer[],
                   $9::text[], $10::uuid[], $11::text[], $12::date[], $13::text[], $14::integer[]) as x`,
    [
      cols.source, cols.ordinal, cols.kind, cols.jurisdiction, cols.origin, cols.raw_text, cols.span_start, cols.span_end,
      cols.canonical_id, cols.target, cols.court, cols.cited_date, cols.case_name, cols.citation_group, EXTRACTOR_VERSION,
    ],
  );
  return n;
}

/** Write judgments.cites for the given judgments; only changed arrays are written (a write moves updated_at: the sync reindexes). */
async function writeCites(db: Queryable, cites: ReadonlyMap<string, readonly string[]>): Promise<void> {
  if (cites.size === 0) return;
  await db.query(
    `update public.judgments j set cites = x.cites
       from jsonb_to_recordset($1::jsonb) as x(id uuid, cites text[])
      where j.id = x.id and j.cites is distinct from x.cites`,
    [JSON.stringify([...cites].map(([id, c]) => ({ id, cites: c })))],
  );
}

/**
 * Replace the judgment_references rows of the given judgments with `refs` (one delete, one insert), leaving
 * judgments.cites alone: an importer writes cites in the same statement as the judgment itself (lib/import/upsert.ts),
 * so the row is not rewritten a second time.
 */
export async function writeReferenceRows(db: Queryable, sourceIds: readonly string[], refs: ReadonlyMap<string, readonly ResolvedReference[]>): Promise<number> {
  await db.query("delete from public.judgment_references where source_judgment_id = any ($1::uuid[])", [sourceIds]);
  const cols = emptyColumns();
  for (const [source, list] of refs) pushRows(cols, source, list);
  return insertRows(db, cols);
}

/** Replace the rows of the given judgments with `refs` and set their judgments.cites to match. */
export async function writeReferences(db: Queryable, sourceIds: readonly string[], refs: ReadonlyMap<string, readonly ResolvedReference[]>): Promise<number> {
  await writeCites(db, new Map(sourceIds.map((id) => [id, citesOf(refs.get(id) ?? [])])));
  return writeReferenceRows(db, sourceIds, refs);
}

/**
 * Put judgments into a loaded index under their keys (replacing what the index held for their ids under those keys),
 * so references to them resolve before they are committed. Answers the undo, for a batch that rolls back.
 */
export function addTargets(index: TargetIndex, judgments: readonly (Target & { case_number: string | null; base_neutral_citation_number: string | null })[]): () => void {
  // Changed in place, each change with its undo: copying a key's list per judgment made a run whose judgments share a
  // key (a case number repeated across courts, a re-imported series) quadratic in their number.
  const undo: (() => void)[] = [];
  for (const j of judgments) {
    for (const key of documentCitationKeys({ case_number: j.case_number, base_neutral_citation_number: j.base_neutral_citation_number })) {
      const entry: Target = { id: j.id, court: j.court, date: j.date };
      const list = index.get(key);
      if (!list) {
        index.set(key, [entry]);
        undo.push(() => index.delete(key));
        continue;
      }
      const at = list.findIndex((t) => t.id === j.id);
      const old = at >= 0 ? list.splice(at, 1)[0] : null;
      list.push(entry);
      undo.push(() => {
        list.splice(list.lastIndexOf(entry), 1);
        if (old) list.splice(at, 0, old);
      });
    }
  }
  return () => {
    for (const u of undo.reverse()) u();
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
  /** Where the time went (milliseconds): reading the texts, extracting and resolving, writing rows, cites and counts. */
  ms?: { read: number; extract: number; write: number; counts: number; total: number };
}

/**
 * Judgments per batch of a full rebuild: their texts are read together (~30 MB for the demo corpus), and their
 * references (~56 each) written in one INSERT while the next batch is extracted.
 */
const FULL_BATCH = 1000;

/**
 * The secondary indexes and the foreign-key and unique constraints of judgment_references, for a full rebuild into
 * an empty table (the seed): dropped, the rows loaded, then built once and validated in one pass each, instead of
 * being maintained and checked row by row (two foreign-key lookups per row). In the caller's transaction, so a failed
 * rebuild leaves them as they were.
 */
async function dropReferenceConstraints(db: Queryable): Promise<() => Promise<void>> {
  const { rows: cons } = await db.query<{ name: string; def: string }>(
    `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
      where conrelid = 'public.judgment_references'::regclass and contype in ('f', 'u') order by contype desc, conname`,
  );
  const { rows: idx } = await db.query<{ name: string; def: string }>(
    `select i.relname as name, pg_get_indexdef(x.indexrelid) as def
       from pg_index x join pg_class i on i.oid = x.indexrelid
      where x.indrelid = 'public.judgment_references'::regclass and not x.indisprimary
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
  );
  const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
  for (const c of cons) await db.query(`alter table public.judgment_references drop constraint ${ident(c.name)}`);
  for (const i of idx) await db.query(`drop index public.${ident(i.name)}`);
  return async () => {
    for (const i of idx) await db.query(i.def);
    for (const c of cons) await db.query(`alter table public.judgment_references add constraint ${ident(c.name)} ${c.def}`);
  };
}

/**
 * Recompute the graph: every judgment's references (or those of `ids`), then the counts. Idempotent: a second run
 * over unchanged judgments writes the same rows and changes no count.
 *
 * A full rebuild rewrites only the judgments whose rows changed, inserts in large batches (FULL_BATCH judgments), and
 * writes cites and cited_by_count together in one pass at the end, counted from the references it just resolved (the same count
 * judgment_cited_by_refresh makes: distinct citing judgments). Into an empty table (the seed), the table's indexes and
 * constraints are built after the load (dropReferenceConstraints). Texts are read in batches while the previous
 * batch's rows are being written (the database works while this process extracts).
 */
export async function rebuildCitations(db: Queryable, options: RebuildOptions = {}): Promise<RebuildResult> {
  const started = performance.now();
  const ms = { read: 0, extract: 0, write: 0, counts: 0, total: 0 };
  const timed = async <T>(phase: "read" | "write" | "counts", f: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      ms[phase] += performance.now() - t0;
    }
  };
  const batchSize = options.batchSize ?? (options.ids ? 200 : FULL_BATCH);
  const index = options.index ?? (await timed("read", () => loadTargetIndex(db)));
  const scoped = options.ids ? [...options.ids] : null;
  const before = scoped
    ? (await db.query<{ t: string }>("select distinct target_judgment_id::text as t from public.judgment_references where source_judgment_id = any ($1::uuid[]) and target_judgment_id is not null", [scoped])).rows.map((r) => r.t)
    : [];
  const total = scoped
    ? scoped.length
    : Number((await db.query<{ n: string }>("select count(*)::text as n from public.judgments")).rows[0].n);
  const result: RebuildResult = { judgments: 0, references: 0, resolved: 0, countsChanged: 0 };
  const touched = new Set<string>(before);

  // A full rebuild into an empty table: its indexes and constraints come after the load. Into a filled one: only the
  // judgments whose rows differ are rewritten (a rerun over unchanged texts and extractor writes nothing).
  let restore: (() => Promise<void>) | null = null;
  let compare = false;
  if (!scoped) {
    const { rows } = await db.query<{ empty: boolean }>("select not exists (select 1 from public.judgment_references) as empty");
    if (rows[0].empty && total >= 1000) restore = await timed("write", () => dropReferenceConstraints(db));
    compare = !rows[0].empty;
  }
  const allCites = new Map<string, string[]>();
  const citers = new Map<string, Set<string>>();
  let pending = emptyColumns();
  // The write in flight (its error, if any, comes back as a value so it is never an unhandled rejection).
  let inFlight: Promise<Error | null> | null = null;
  const settle = async () => {
    if (!inFlight) return;
    const err = await timed("write", () => inFlight as Promise<Error | null>);
    inFlight = null;
    if (err) throw err;
  };
  let replace: string[] = [];
  const flush = async () => {
    if (pending.source.length === 0 && replace.length === 0) return;
    const cols = pending;
    const stale = replace;
    pending = emptyColumns();
    replace = [];
    await settle();
    const del = stale.length ? db.query("delete from public.judgment_references where source_judgment_id = any ($1::uuid[])", [stale]) : Promise.resolve();
    inFlight = del.then(() => insertRows(db, cols)).then(
      () => null,
      (e: Error) => e,
    );
  };

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
    await settle();
    // jurisdiction is a text column with a check (PL|UK): the generated type says string, the check says which.
    const { rows } = await timed("read", () =>
      db.query<PgRow<"judgments", "id" | "full_text" | "case_number" | "base_neutral_citation_number"> & Pick<SourceJudgment, "jurisdiction">>(
        `select id::text, full_text, jurisdiction, case_number, base_neutral_citation_number
           from public.judgments ${where} order by id limit $1`,
        params,
      ),
    );
    if (rows.length === 0) break;
    // The previous batch's rows are written while this one is extracted.
    await flush();
    const t0 = performance.now();
    const refs = new Map<string, ResolvedReference[]>();
    for (const j of rows) {
      const list = judgmentReferences(j, index);
      refs.set(j.id, list);
      for (const r of list) {
        if (r.targetId) {
          touched.add(r.targetId);
          result.resolved++;
          if (!scoped) {
            const set = citers.get(r.targetId) ?? new Set<string>();
            set.add(j.id);
            citers.set(r.targetId, set);
          }
        }
      }
    }
    ms.extract += performance.now() - t0;
    if (scoped) {
      await settle();
      result.references += await timed("write", () => writeReferences(db, rows.map((r) => r.id), refs));
    } else {
      const differ = compare ? await timed("read", () => changedSources(db, refs)) : null;
      for (const [id, list] of refs) {
        allCites.set(id, citesOf(list));
        result.references += list.length;
        if (differ && !differ.has(id)) continue;
        pushRows(pending, id, list);
        if (differ) replace.push(id);
      }
    }
    result.judgments += rows.length;
    options.onProgress?.(result.judgments, total);
    after = rows[rows.length - 1].id;
  }
  await flush();
  await settle();
  if (restore) await timed("write", restore);

  if (scoped) {
    const { rows: changed } = await timed("counts", () => db.query<{ n: number }>("select public.judgment_cited_by_refresh($1::uuid[]) as n", [[...touched]]));
    result.countsChanged = changed[0]?.n ?? 0;
  } else {
    result.countsChanged = await timed("counts", () => writeCitesAndCounts(db, allCites, citers));
  }
  ms.total = performance.now() - started;
  for (const k of Object.keys(ms) as (keyof typeof ms)[]) ms[k] = Math.round(ms[k]);
  return { ...result, ms };
}

/** One stored or new row as a comparable string (the columns a rebuild writes). */
const rowKey = (v: readonly unknown[]) => JSON.stringify(v);

/**
 * The judgments among `refs` whose stored rows differ from the new ones (any column, the extractor version included).
 * A difference in how a value comes back (a date's text) only makes a judgment count as changed: it is rewritten.
 */
async function changedSources(db: Queryable, refs: ReadonlyMap<string, readonly ResolvedReference[]>): Promise<Set<string>> {
  const { rows } = await db.query<{ s: string; k: string }>(
    `select source_judgment_id::text as s,
            json_build_array(ordinal, kind, jurisdiction, origin, raw_text, span_start, span_end, canonical_id,
                             target_judgment_id::text, court, cited_date::text, case_name, citation_group, extractor_version)::text as k
       from public.judgment_references where source_judgment_id = any ($1::uuid[]) order by source_judgment_id, ordinal`,
    [[...refs.keys()]],
  );
  const stored = new Map<string, string[]>();
  for (const r of rows) {
    const list = stored.get(r.s) ?? [];
    list.push(r.k);
    stored.set(r.s, list);
  }
  const differ = new Set<string>();
  for (const [id, list] of refs) {
    const old = stored.get(id) ?? [];
    const cols = emptyColumns();
    pushRows(cols, id, list);
    const same =
      old.length === list.length &&
      list.every((_, i) =>
        rowKey(JSON.parse(old[i]) as unknown[]) ===
        rowKey([i, cols.kind[i], cols.jurisdiction[i], cols.origin[i], cols.raw_text[i], cols.span_start[i], cols.span_end[i], cols.canonical_id[i],
          cols.target[i], cols.court[i], cols.cited_date[i], cols.case_name[i], cols.citation_group[i], EXTRACTOR_VERSION]),
      );
    if (!same) differ.add(id);
  }
  return differ;
}

/**
 * After a full rebuild: every judgment's cites and cited_by_count in one UPDATE per chunk, written only where one of
 * them changes (a write moves updated_at: the sync reindexes just those). Returns how many counts changed.
 */
async function writeCitesAndCounts(db: Queryable, cites: ReadonlyMap<string, readonly string[]>, citers: ReadonlyMap<string, ReadonlySet<string>>): Promise<number> {
  const ids = [...cites.keys()];
  let changed = 0;
  for (let k = 0; k < ids.length; k += 5000) {
    const chunk = ids.slice(k, k + 5000).map((id) => ({ id, cites: cites.get(id) ?? [], n: citers.get(id)?.size ?? 0 }));
    const { rows } = await db.query<{ n: number }>(
      `with x as (select * from jsonb_to_recordset($1::jsonb) as x(id uuid, cites text[], n integer)),
            d as (select x.id, x.cites, x.n, j.cited_by_count is distinct from x.n as count_changed
                    from x join public.judgments j on j.id = x.id
                   where j.cites is distinct from x.cites or j.cited_by_count is distinct from x.n),
            u as (update public.judgments j set cites = d.cites, cited_by_count = d.n from d where j.id = d.id returning 1)
       select (select count(*) from d where count_changed)::integer as n, (select count(*) from u)::integer as written`,
      [JSON.stringify(chunk)],
    );
    changed += rows[0]?.n ?? 0;
  }
  return changed;
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
