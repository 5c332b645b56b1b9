/**
 * Client view of GET /api/documents/{id}/metadata, /html and /similar. The metadata keys follow the spec's document
 * page vocabulary (country, date_issued, base_<field>); the reference detail names (jurisdiction, decision_date) and a
 * nested `base_fields`/`extracted` object are read too, so the page survives either shape.
 */
export type Raw = Record<string, unknown>;

export interface Judge {
  name: string;
  role: string | null;
}

export interface Judgment {
  id: string;
  title: string;
  caseNumber: string | null;
  country: string | null;
  courtName: string | null;
  courtLevel: string | null;
  dateIssued: string | null;
  publicationDate: string | null;
  decisionType: string | null;
  sourceUrl: string | null;
  /** The importer the row came from (saos, fcl, juddges); null for our own JSONL and the demo corpus. */
  source: "saos" | "fcl" | "juddges" | null;
  licence: string | null;
  summary: string | null;
  judges: Judge[];
  keywords: string[];
  legalTopics: string[];
  /** base_<field> → value. */
  base: Record<string, unknown>;
}

const s = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

export function normaliseJudgment(input: Raw): Judgment {
  const raw = (input.document && typeof input.document === "object" ? input.document : input.judgment && typeof input.judgment === "object" ? input.judgment : input) as Raw;
  const base: Record<string, unknown> = {};
  const nested = (raw.base_fields ?? raw.extracted ?? raw.extracted_data) as Raw | undefined;
  if (nested && typeof nested === "object") {
    for (const [k, v] of Object.entries(nested)) base[k.startsWith("base_") ? k : `base_${k}`] = v;
  }
  for (const [k, v] of Object.entries(raw)) if (k.startsWith("base_")) base[k] = v;
  const judges = Array.isArray(raw.judges)
    ? raw.judges
        .map((j): Judge | null =>
          typeof j === "string" ? { name: j, role: null } : j && typeof j === "object" && s((j as Raw).name) ? { name: String((j as Raw).name), role: s((j as Raw).role) } : null,
        )
        .filter((j): j is Judge => j !== null)
    : [];
  return {
    id: String(raw.id ?? ""),
    title: s(raw.base_case_name) ?? s(raw.title) ?? "",
    caseNumber: s(raw.case_number),
    country: s(raw.country) ?? s(raw.jurisdiction),
    courtName: s(raw.court_name),
    courtLevel: s(raw.court_level),
    dateIssued: s(raw.date_issued) ?? s(raw.decision_date),
    publicationDate: s(raw.publication_date),
    decisionType: s(raw.decision_type),
    sourceUrl: s(raw.source_url),
    source: raw.source === "saos" || raw.source === "fcl" || raw.source === "juddges" ? raw.source : null,
    licence: s(raw.licence),
    summary: s(raw.summary),
    judges,
    keywords: list(raw.keywords),
    legalTopics: list(raw.legal_topics),
    base,
  };
}

export interface SimilarItem {
  id: string;
  title: string;
  caseNumber: string | null;
  similarity: number | null;
}

export function normaliseSimilar(body: Raw): SimilarItem[] {
  const rows = (Array.isArray(body.results) ? body.results : Array.isArray(body.hits) ? body.hits : Array.isArray(body) ? body : []) as Raw[];
  return rows.map((r) => {
    const d = (r.document && typeof r.document === "object" ? r.document : r) as Raw;
    const sim = typeof r.similarity === "number" ? r.similarity : typeof r.score === "number" ? r.score : null;
    return { id: String(d.id ?? ""), title: s(d.base_case_name) ?? s(d.title) ?? String(d.id ?? ""), caseNumber: s(d.case_number), similarity: sim };
  });
}

export interface TocEntry {
  id: string;
  text: string;
  level: number;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Text of an HTML fragment's character references (the sanitiser writes &amp; &lt; &gt; &quot; and numeric ones). */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const HEADING = /<h([1-4])(\s[^>]*)?>([\s\S]*?)<\/h\1\s*>/gi;

/**
 * Give every heading of the judgment HTML an id and list them for the table of contents. Plain string work, not a
 * DOM parser, so the server render and the browser produce the same markup (the text and its contents are
 * rendered on the server). The input is the sanitiser's output (lib/backend/documents.ts fullTextToHtml: p, h2, h3
 * and br, no attributes), so a regular expression over its headings is exact; an id a heading already has is kept.
 */
export function withToc(html: string): { html: string; toc: TocEntry[] } {
  const toc: TocEntry[] = [];
  let n = 0;
  const out = html.replace(HEADING, (whole: string, level: string, attrs: string | undefined, inner: string) => {
    n += 1;
    const text = decodeEntities(inner.replace(/<[^>]*>/g, "")).trim();
    if (!text) return whole;
    const own = /\sid\s*=\s*"([^"]*)"/i.exec(attrs ?? "")?.[1];
    const id = own ? decodeEntities(own) : `sec-${n}`;
    toc.push({ id, text: text.slice(0, 120), level: Number(level) });
    return own ? whole : `<h${level} id="${id}"${attrs ?? ""}>${inner}</h${level}>`;
  });
  return { html: out, toc };
}
