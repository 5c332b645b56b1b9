/**
 * Search and similar of the fake: a small in-memory engine (ranking rules words/typo/attribute/sort/exactness,
 * `matchingStrategy` all/last, cosine similarity for vectors), enough for obvious-match conformance assertions,
 * not a model of Meilisearch's exact scores; request bodies are checked as the real engine checks them.
 */
import { cosine, docVector, projectDocument } from "./documents";
import { evalFilter, parseFilterParam } from "./filter";
import { MeiliError, type Doc, type Index, type Json } from "./model";
import { cropText, highlightText, matchDoc, tokenize } from "./text";

export function searchIndex(idx: Index, body: Record<string, unknown>) {
  const started = Date.now();
  const known = [
    "q", "offset", "limit", "page", "hitsPerPage", "filter", "sort", "facets", "attributesToRetrieve", "attributesToHighlight",
    "highlightPreTag", "highlightPostTag", "attributesToCrop", "cropLength", "cropMarker", "showMatchesPosition",
    "matchingStrategy", "showRankingScore", "showRankingScoreDetails", "rankingScoreThreshold", "attributesToSearchOn",
    "hybrid", "vector", "retrieveVectors", "distinct", "locales",
  ];
  for (const k of Object.keys(body)) {
    if (!known.includes(k)) throw new MeiliError(400, "bad_request", `Unknown field \`${k}\`: expected one of ${known.map((x) => `\`${x}\``).join(", ")}`);
  }
  const q = typeof body.q === "string" ? body.q : "";
  const limit = typeof body.limit === "number" ? body.limit : 20;
  const offset = typeof body.offset === "number" ? body.offset : 0;
  const s = idx.settings;

  // attributesToSearchOn must be searchable (documented error invalid_search_attributes_to_search_on).
  const searchable = s.searchableAttributes.includes("*") ? null : s.searchableAttributes;
  let searchOn = searchable;
  if (Array.isArray(body.attributesToSearchOn)) {
    const asked = body.attributesToSearchOn as string[];
    for (const a of asked) {
      if (searchable && !searchable.includes(a)) {
        throw new MeiliError(400, "invalid_search_attributes_to_search_on", `Attribute \`${a}\` is not searchable. Available searchable attributes are: \`${searchable.join(", ")}\`.`);
      }
    }
    searchOn = searchable ? searchable.filter((a) => asked.includes(a)) : asked;
  }

  // Filter, sort and facet attributes are checked against the settings, as the real engine does.
  const filterNode = body.filter === undefined || body.filter === null ? null : parseFilterParam(body.filter, s.filterableAttributes);
  const sort = Array.isArray(body.sort) ? (body.sort as string[]).map(parseSort) : [];
  for (const so of sort) {
    if (!s.sortableAttributes.includes(so.attribute)) {
      throw new MeiliError(400, "invalid_search_sort", `Attribute \`${so.attribute}\` is not sortable. Available sortable attributes are: \`${s.sortableAttributes.join(", ")}\`.`);
    }
  }
  const facets = Array.isArray(body.facets) ? (body.facets as string[]) : null;
  if (facets) {
    for (const f of facets) {
      if (f !== "*" && !s.filterableAttributes.includes(f)) {
        throw new MeiliError(400, "invalid_search_facets", `Invalid facet distribution, attribute \`${f}\` is not filterable. The available filterable attributes are \`${s.filterableAttributes.join(", ")}\`.`);
      }
    }
  }

  // Hybrid / vector.
  const hybrid = body.hybrid as { embedder?: unknown; semanticRatio?: unknown } | undefined | null;
  let semanticRatio = 0;
  let queryVector: number[] | null = null;
  if (hybrid !== undefined && hybrid !== null) {
    if (typeof hybrid !== "object") throw new MeiliError(400, "invalid_search_hybrid_query", "Invalid value type at `.hybrid`: expected an object");
    for (const k of Object.keys(hybrid)) {
      if (k !== "embedder" && k !== "semanticRatio") {
        throw new MeiliError(400, "invalid_search_hybrid_query", `Unknown field \`${k}\` inside \`.hybrid\`: expected one of \`semanticRatio\`, \`embedder\``);
      }
    }
    if (typeof hybrid.embedder !== "string") {
      throw new MeiliError(400, "missing_search_hybrid_embedder", "Missing field `embedder` inside `.hybrid`");
    }
    const ratio = hybrid.semanticRatio === undefined ? 0.5 : hybrid.semanticRatio;
    if (typeof ratio !== "number" || ratio < 0 || ratio > 1) {
      throw new MeiliError(400, "invalid_search_semantic_ratio", "Invalid value at `.hybrid.semanticRatio`: the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.");
    }
    const embedder = s.embedders[hybrid.embedder];
    if (!embedder) throw new MeiliError(400, "invalid_search_embedder", `Cannot find embedder with name \`${hybrid.embedder}\`.`);
    semanticRatio = ratio;
    if (Array.isArray(body.vector)) {
      queryVector = body.vector as number[];
      if (queryVector.length !== embedder.dimensions) {
        throw new MeiliError(400, "invalid_vector_dimensions", `Invalid vector dimensions: expected: \`${String(embedder.dimensions)}\`, found: \`${queryVector.length}\`.`);
      }
    } else if (semanticRatio === 1 && q !== "" && embedder.source === "userProvided") {
      throw new MeiliError(400, "vector_embedding_error", `Error while generating embeddings: user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - \`${q}\``);
    }
  } else if (body.vector !== undefined && body.vector !== null) {
    throw new MeiliError(400, "invalid_search_vector", "Passing `vector` as a parameter requires `hybrid` to be set with an `embedder`.");
  }
  const embedderName = hybrid && typeof hybrid.embedder === "string" ? hybrid.embedder : null;

  const attrs = (d: Doc) => (searchOn ?? Object.keys(d).filter((k) => k !== "_vectors"));
  // Meilisearch's query syntax: "phrase" (its words adjacent, in order), -word and -"phrase" (negative operator).
  const { positive, phrases, excluded } = splitQuery(q);
  const candidates = [...idx.documents.values()].filter(
    (d) =>
      (filterNode ? evalFilter(filterNode, d) : true) &&
      phrases.every((p) => hasPhrase(d, attrs(d), p)) &&
      !excluded.some((p) => hasPhrase(d, attrs(d), p)),
  );
  const strategy = body.matchingStrategy === "all" ? "all" : "last";
  const words = tokenize(positive).filter((w) => !s.stopWords.includes(w));
  const prefixLast = positive.trim() !== "" && !/[\s"]$/.test(q);

  interface Scored { doc: Doc; kw: number | null; sem: number | null; buckets: number[]; score: number }
  const scored: Scored[] = [];
  for (const d of candidates) {
    let kw: number | null = null;
    let buckets: number[] = [];
    if (words.length === 0) {
      kw = 1;
    } else {
      const m = matchDoc(d, attrs(d), words, prefixLast, s);
      const required = strategy === "all" ? words.length : 1;
      if (m.matchedPrefix >= required) {
        const maxTypos = words.length * 2;
        buckets = [m.matchedPrefix, -m.typos, -m.bestAttribute, m.exact];
        kw = (m.matchedPrefix / words.length) * (1 - (0.5 * m.typos) / (maxTypos + 1)) * (1 - m.bestAttribute / 100);
      }
    }
    let sem: number | null = null;
    if (queryVector && embedderName) {
      const v = docVector(d, embedderName);
      if (v) sem = (1 + cosine(queryVector, v)) / 2;
    }
    const inKeyword = kw !== null && semanticRatio < 1;
    const inSemantic = sem !== null && semanticRatio > 0;
    if (!inKeyword && !inSemantic) continue;
    const score = semanticRatio > 0 && queryVector ? (inKeyword ? (1 - semanticRatio) * kw! : 0) + (inSemantic ? semanticRatio * sem! : 0) : kw ?? 0;
    scored.push({ doc: d, kw, sem, buckets, score });
  }

  const rules = s.rankingRules;
  const cmp = (a: Scored, b: Scored): number => {
    if (semanticRatio > 0 && queryVector) return b.score - a.score;
    for (const rule of rules) {
      let diff = 0;
      if (rule === "words") diff = (b.buckets[0] ?? 0) - (a.buckets[0] ?? 0);
      else if (rule === "typo") diff = (b.buckets[1] ?? 0) - (a.buckets[1] ?? 0);
      else if (rule === "attribute" || rule === "attributeRank") diff = (b.buckets[2] ?? 0) - (a.buckets[2] ?? 0);
      else if (rule === "exactness") diff = (b.buckets[3] ?? 0) - (a.buckets[3] ?? 0);
      else if (rule === "sort") {
        for (const so of sort) {
          diff = compareForSort(a.doc[so.attribute], b.doc[so.attribute], so.direction);
          if (diff !== 0) break;
        }
      } else {
        const custom = /^(.+):(asc|desc)$/.exec(rule);
        if (custom) diff = compareForSort(a.doc[custom[1]], b.doc[custom[1]], custom[2] as "asc" | "desc");
      }
      if (diff !== 0) return diff;
    }
    return 0;
  };
  scored.sort(cmp);

  const cap = s.pagination.maxTotalHits;
  const total = Math.min(scored.length, cap);
  const page = scored.slice(Math.min(offset, cap), Math.min(offset + limit, cap));

  const retrieve = Array.isArray(body.attributesToRetrieve) ? (body.attributesToRetrieve as string[]) : ["*"];
  const hl = Array.isArray(body.attributesToHighlight) ? (body.attributesToHighlight as string[]) : [];
  const crop = Array.isArray(body.attributesToCrop) ? (body.attributesToCrop as string[]) : [];
  const cropLength = typeof body.cropLength === "number" ? body.cropLength : 10;
  const pre = typeof body.highlightPreTag === "string" ? body.highlightPreTag : "<em>";
  const post = typeof body.highlightPostTag === "string" ? body.highlightPostTag : "</em>";
  const marker = typeof body.cropMarker === "string" ? body.cropMarker : "…";

  const hits = page.map((h) => {
    const out: Doc = projectDocument(idx, h.doc, retrieve, body.retrieveVectors === true);
    if (hl.length || crop.length) {
      const formatted: Doc = {};
      for (const [k, v] of Object.entries(out)) {
        if (k === "_vectors") continue;
        const doHl = hl.includes("*") || hl.includes(k);
        const cropSpec = crop.map((c) => c.split(":")).find(([name]) => name === k || name === "*");
        const fmt = (text: string): string => {
          let t = text;
          if (cropSpec) t = cropText(t, words, prefixLast, s, cropSpec[1] ? Number(cropSpec[1]) : cropLength, marker);
          if (doHl) t = highlightText(t, words, prefixLast, s, pre, post);
          return t;
        };
        if (typeof v === "string") formatted[k] = fmt(v);
        else if (Array.isArray(v)) formatted[k] = v.map((x) => (typeof x === "string" ? fmt(x) : x));
        else if (typeof v === "number" || typeof v === "boolean") formatted[k] = String(v);
        else formatted[k] = v;
      }
      out._formatted = formatted;
    }
    if (body.showRankingScore === true) out._rankingScore = semanticRatio > 0 && queryVector ? h.score : h.kw ?? h.sem ?? 0;
    return out;
  });

  const response: Record<string, unknown> = {
    hits,
    query: q,
    processingTimeMs: Date.now() - started,
    limit,
    offset,
    estimatedTotalHits: total,
  };
  if (facets) {
    const { distribution, stats } = facetDistribution(
      scored.map((x) => x.doc),
      facets.includes("*") ? s.filterableAttributes : facets,
      s.faceting.maxValuesPerFacet,
    );
    response.facetDistribution = distribution;
    response.facetStats = stats;
  }
  if (queryVector) response.queryVector = queryVector;
  if (hybrid) response.semanticHitCount = queryVector ? page.filter((h) => h.sem !== null && (h.kw === null || semanticRatio * h.sem > (1 - semanticRatio) * h.kw)).length : 0;
  return response;
}

export function similarDocuments(idx: Index, body: Record<string, unknown>) {
  const started = Date.now();
  if (typeof body.embedder !== "string") throw new MeiliError(400, "missing_similar_embedder", "Missing field `embedder`");
  if (!idx.settings.embedders[body.embedder]) {
    throw new MeiliError(400, "invalid_similar_embedder", `Cannot find embedder with name \`${body.embedder}\`.`);
  }
  const id = String(body.id);
  const target = idx.documents.get(id);
  if (!target) throw new MeiliError(404, "not_found_similar_id", `Document \`${id}\` not found.`);
  const tv = docVector(target, body.embedder);
  if (!tv) throw new MeiliError(400, "invalid_similar_id", `Document \`${id}\` has no embedding for embedder \`${body.embedder}\`.`);
  const filterNode = body.filter === undefined || body.filter === null ? null : parseFilterParam(body.filter, idx.settings.filterableAttributes);
  const limit = typeof body.limit === "number" ? body.limit : 20;
  const offset = typeof body.offset === "number" ? body.offset : 0;
  const scored = [...idx.documents.entries()]
    .filter(([k, d]) => k !== id && (filterNode ? evalFilter(filterNode, d) : true))
    .map(([, d]) => ({ d, v: docVector(d, body.embedder as string) }))
    .filter((x): x is { d: Doc; v: number[] } => x.v !== null)
    .map((x) => ({ d: x.d, score: (1 + cosine(tv, x.v)) / 2 }))
    .sort((a, b) => b.score - a.score);
  const retrieve = Array.isArray(body.attributesToRetrieve) ? (body.attributesToRetrieve as string[]) : ["*"];
  return {
    hits: scored.slice(offset, offset + limit).map((x) => {
      const out = projectDocument(idx, x.d, retrieve, body.retrieveVectors === true);
      if (body.showRankingScore === true) out._rankingScore = x.score;
      return out;
    }),
    id,
    processingTimeMs: Date.now() - started,
    limit,
    offset,
    estimatedTotalHits: Math.min(scored.length, idx.settings.pagination.maxTotalHits),
  };
}

function facetDistribution(docs: Doc[], attrs: string[], maxValues: number) {
  const distribution: Record<string, Record<string, number>> = {};
  const stats: Record<string, { min: number; max: number }> = {};
  for (const a of attrs) {
    const counts = new Map<string, number>();
    let min = Infinity;
    let max = -Infinity;
    for (const d of docs) {
      const v = d[a];
      const values = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
      const seen = new Set<string>();
      for (const x of values) {
        if (typeof x === "number") {
          min = Math.min(min, x);
          max = Math.max(max, x);
        }
        if (typeof x !== "string" && typeof x !== "number" && typeof x !== "boolean") continue;
        const key = String(x);
        if (seen.has(key)) continue;
        seen.add(key);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    // Default faceting.sortFacetValuesBy is alpha; the engine keeps the first maxValuesPerFacet values.
    distribution[a] = Object.fromEntries([...counts.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).slice(0, maxValues));
    if (min !== Infinity) stats[a] = { min, max };
  }
  return { distribution, stats };
}

function parseSort(expr: string): { attribute: string; direction: "asc" | "desc" } {
  const m = /^([^:]+):(asc|desc)$/.exec(expr);
  if (!m) throw new MeiliError(400, "invalid_search_sort", `Invalid syntax for the sort parameter: expected expression ending by \`:asc\` or \`:desc\`, found \`${expr}\`.`);
  return { attribute: m[1], direction: m[2] as "asc" | "desc" };
}

function compareForSort(a: Json | undefined, b: Json | undefined, dir: "asc" | "desc"): number {
  // Documents lacking the field come last whatever the direction (documented behaviour).
  const missA = a === undefined || a === null;
  const missB = b === undefined || b === null;
  if (missA || missB) return missA === missB ? 0 : missA ? 1 : -1;
  // Numbers sort before strings.
  if (typeof a === "number" && typeof b !== "number") return -1;
  if (typeof b === "number" && typeof a !== "number") return 1;
  const c = typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  return dir === "asc" ? c : -c;
}

/** A query's phrases and negated words/phrases (tokenized), and the positive text (phrase words included). */
function splitQuery(q: string): { positive: string; phrases: string[][]; excluded: string[][] } {
  const phrases: string[][] = [];
  const excluded: string[][] = [];
  let positive = "";
  for (const m of q.matchAll(/(^|\s)-"([^"]*)"?|(^|\s)-([^\s"]+)|"([^"]*)"?|[^\s"]+|\s+/g)) {
    if (m[2] !== undefined) excluded.push(tokenize(m[2]));
    else if (m[4] !== undefined) excluded.push(tokenize(m[4]));
    else if (m[5] !== undefined) {
      const ws = tokenize(m[5]);
      if (ws.length > 1) phrases.push(ws);
      positive += ` ${m[5]} `;
    } else positive += m[0];
  }
  return { positive, phrases: phrases.filter((p) => p.length > 0), excluded: excluded.filter((p) => p.length > 0) };
}

function hasPhrase(d: Doc, attrs: string[], phrase: string[]): boolean {
  for (const a of attrs) {
    for (const text of fieldStrings(d[a])) {
      const toks = tokenize(text);
      outer: for (let i = 0; i + phrase.length <= toks.length; i++) {
        for (let k = 0; k < phrase.length; k++) if (toks[i + k] !== phrase[k]) continue outer;
        return true;
      }
    }
  }
  return false;
}

function fieldStrings(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (typeof v === "number") return [String(v)];
  if (Array.isArray(v)) return v.flatMap(fieldStrings);
  if (v !== null && typeof v === "object") return Object.values(v).flatMap(fieldStrings);
  return [];
}
