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

/** Give every heading of the judgment HTML an id and list them for the table of contents (browser only). */
export function withToc(html: string): { html: string; toc: TocEntry[] } {
  if (typeof DOMParser === "undefined") return { html, toc: [] };
  const doc = new DOMParser().parseFromString(`<div id="root">${html}</div>`, "text/html");
  const root = doc.getElementById("root");
  if (!root) return { html, toc: [] };
  const toc: TocEntry[] = [];
  root.querySelectorAll("h1, h2, h3, h4").forEach((h, i) => {
    const text = (h.textContent ?? "").trim();
    if (!text) return;
    const id = h.id || `sec-${i + 1}`;
    h.id = id;
    toc.push({ id, text: text.slice(0, 120), level: Number(h.tagName.slice(1)) });
  });
  return { html: root.innerHTML, toc };
}
