/**
 * The parts of a query that are not ranked words: exclusions (`-word`, `-"phrase"`), quoted phrases' word positions,
 * OR groups with a phrase (a document must hold one member whole), and field terms (`court:`, `judge:`, `case:`). They narrow the matching documents, so they become one predicate over
 * stored documents, combined with the request's filter (ranking.ts takes it like any filter).
 *
 * The keyword index stores no word positions, so a quoted phrase of two or more words is checked on the documents'
 * text: the documents holding every word of the phrase (intersecting exact-term postings, in memory) are read from the
 * LanceDB documents table and their searchable attributes scanned for the words adjacent and in order. That costs a
 * read and a tokenisation of each such document (~1 ms per long judgment), so at most SEARCH_PHRASE_VERIFY_MAX
 * documents per phrase are read; a phrase whose words co-occur in more is matched by co-occurrence and the response
 * says so. The answer per phrase is remembered per generation state (an LRU), so the next page costs nothing.
 */
import type * as lancedb from "@lancedb/lancedb";
import { config } from "@/lib/config";
import { LruCache } from "@/lib/lru";
import { SEARCHABLE_ATTRIBUTES } from "../index-settings";
import { words } from "../text/tokenize";
import type { Predicate } from "../filter";
import type { FilterDoc } from "../filter/evaluate";
import type { FieldTerm } from "../types";
import type { LiveIndex } from "./live-index";
import type { OrMember, ParsedQuery } from "./query";
import { wordExpansions } from "./ranking";

export interface QueryConstraints {
  /** Passes the documents the query's exclusions, phrases and field terms allow (null: no such parts). */
  accept: Predicate | null;
  warnings: string[];
}

/** Ids of the live documents holding every word of `ws` exactly (folded), over the main and delta segments. */
function docsWithAll(live: LiveIndex, ws: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const segment of [live.main, live.delta]) {
    if (!segment || segment.size === 0) continue;
    const lists = ws.map((w) => segment.docsWithTerm(w)).sort((a, b) => a.length - b.length);
    if (lists[0].length === 0) continue;
    let cur: Uint32Array | number[] = lists[0];
    for (let i = 1; i < lists.length && cur.length > 0; i++) cur = intersect(cur, lists[i]);
    const dead = segment === live.main ? live.mainDead : null;
    for (const ord of cur) {
      const id = segment.ids[ord];
      if (!dead || !dead.has(id)) out.add(id);
    }
  }
  return out;
}

/**
 * Ids of the live documents holding a word as ranking expands it (exact, typo variants except to proper names; no
 * prefix: a word inside an OR group is never the query's last typed word).
 */
function docsWithWord(live: LiveIndex, text: string): Set<string> {
  const out = new Set<string>();
  for (const segment of [live.main, live.delta]) {
    if (!segment || segment.size === 0) continue;
    const dead = segment === live.main ? live.mainDead : null;
    for (const e of wordExpansions(segment, { text, prefix: false, typos: true }, live)) {
      for (const ord of segment.docsWithTerm(segment.vocab[e.term])) {
        const id = segment.ids[ord];
        if (!dead || !dead.has(id)) out.add(id);
      }
    }
  }
  return out;
}

/** Ascending ordinals in both. */
function intersect(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return out;
}

/** Whether `seq` occurs in `ws` as adjacent words in order. */
function hasSequence(ws: readonly string[], seq: readonly string[]): boolean {
  outer: for (let i = 0; i + seq.length <= ws.length; i++) {
    for (let k = 0; k < seq.length; k++) if (ws[i + k] !== seq[k]) continue outer;
    return true;
  }
  return false;
}

function texts(v: unknown, out: string[]): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) texts(x, out);
  return out;
}

/** Whether one searchable attribute of `doc` holds the phrase (each value of a list on its own). */
export function docHasPhrase(doc: Record<string, unknown>, phrase: readonly string[]): boolean {
  for (const a of SEARCHABLE_ATTRIBUTES) {
    for (const t of texts(doc[a], [])) if (hasSequence(words(t), phrase)) return true;
  }
  return false;
}

/** Whether every word of a field term occurs in the attribute (folded, exact words). */
function fieldTermHolds(doc: FilterDoc, term: FieldTerm): boolean {
  const have = new Set<string>();
  for (const t of texts(doc[term.attribute], [])) for (const w of words(t)) have.add(w);
  return term.words.every((w) => have.has(w));
}

const quoteSql = (id: string) => `'${id.replace(/'/g, "''")}'`;

/** The ids among `ids` whose stored text (with full_text) holds the phrase. */
async function verifyPhrase(docs: lancedb.Table, ids: readonly string[], phrase: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const BATCH = 200;
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = ids.slice(i, i + BATCH);
    const rows = await docs.query().where(`id IN (${part.map(quoteSql).join(", ")})`).select(["id", "doc"]).toArray();
    for (const r of rows as Array<{ id: string; doc: string }>) {
      if (docHasPhrase(JSON.parse(r.doc) as Record<string, unknown>, phrase)) out.add(r.id);
    }
  }
  return out;
}

interface PhraseAnswer {
  ids: Set<string>;
  /** false: too many candidates, `ids` are the co-occurrences. */
  verified: boolean;
}

/** Per generation state (a LiveIndex is replaced, never changed, when the documents change), per phrase. */
const answers = new WeakMap<LiveIndex, { version: number; cache: LruCache<string, PhraseAnswer> }>();

async function phraseAnswer(live: LiveIndex, version: number, docs: lancedb.Table | null, phrase: readonly string[]): Promise<PhraseAnswer> {
  let entry = answers.get(live);
  if (!entry || entry.version !== version) {
    entry = { version, cache: new LruCache<string, PhraseAnswer>(256) };
    answers.set(live, entry);
  }
  const key = phrase.join(" ");
  const hit = entry.cache.get(key);
  if (hit) return hit;
  const candidates = docsWithAll(live, phrase);
  let answer: PhraseAnswer;
  if (!docs || candidates.size > config().SEARCH_PHRASE_VERIFY_MAX) answer = { ids: candidates, verified: false };
  else answer = { ids: await verifyPhrase(docs, [...candidates], phrase), verified: true };
  entry.cache.set(key, answer);
  return answer;
}

/**
 * The predicate for a parsed query's exclusions, phrases and field terms (null when it has none). `version` names the
 * live state the phrase answers belong to (LiveIndex's documents version).
 */
export async function queryConstraints(
  live: LiveIndex,
  version: number,
  docs: lancedb.Table | null,
  parsed: ParsedQuery,
  fieldTerms: readonly FieldTerm[] | undefined,
): Promise<QueryConstraints> {
  const warnings: string[] = [];
  const excludedIds = new Set<string>();
  const required: Set<string>[] = [];
  for (const ex of parsed.excluded) {
    if (ex.length === 1) {
      for (const id of docsWithAll(live, ex)) excludedIds.add(id);
      continue;
    }
    const a = await phraseAnswer(live, version, docs, ex);
    if (!a.verified) warnings.push(`"${ex.join(" ")}" is too common to check word order: documents holding all its words were left out`);
    for (const id of a.ids) excludedIds.add(id);
  }
  for (const p of parsed.phrases) {
    const a = await phraseAnswer(live, version, docs, p);
    if (!a.verified) warnings.push(`"${p.join(" ")}" is too common to check word order: documents holding all its words were matched`);
    required.push(a.ids);
  }
  for (const group of parsed.orGroups) {
    // The union of the members' documents: a phrase's (adjacency checked), a quoted word's (exact), a word's (as ranked).
    const union = new Set<string>();
    for (const m of group) {
      for (const id of await memberIds(live, version, docs, m, warnings)) union.add(id);
    }
    required.push(union);
  }
  const terms = fieldTerms ?? [];
  if (excludedIds.size === 0 && required.length === 0 && terms.length === 0) return { accept: null, warnings };
  const id = (doc: FilterDoc) => String(doc.id);
  return {
    accept: (doc) =>
      !excludedIds.has(id(doc)) && required.every((s) => s.has(id(doc))) && terms.every((t) => fieldTermHolds(doc, t)),
    warnings,
  };
}

/** The documents one side of an OR group stands for. */
async function memberIds(live: LiveIndex, version: number, docs: lancedb.Table | null, m: OrMember, warnings: string[]): Promise<Set<string>> {
  if (!m.quoted) return m.words.length === 1 ? docsWithWord(live, m.words[0]) : docsWithAll(live, m.words);
  if (m.words.length === 1) return docsWithAll(live, m.words);
  const a = await phraseAnswer(live, version, docs, m.words);
  if (!a.verified) warnings.push(`"${m.words.join(" ")}" is too common to check word order: documents holding all its words were matched`);
  return a.ids;
}
