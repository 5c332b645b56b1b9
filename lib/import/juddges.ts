/**
 * JuDDGES datasets (Hugging Face JuDDGES/*): `pl-court-raw` rows (current column names and the v1 names), and the
 * English `en-court-raw` and `en-appealcourt` rows, as parquet (read row group by row group with hyparquet, never
 * the whole file) or JSON / JSON Lines (streamed). `xml_content` (Portal Orzeczeń XML) is rendered to sanitised HTML;
 * `extracted_legal_bases` are kept as legislation references.
 */
import { createHash } from "node:crypto";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { escapeHtml } from "@/lib/text/html";
import { checkDate, excerpt, httpUrl, judgeNameProblem, LICENCES, nonEmpty, sanitiseWithText } from "./common";
import { wrongSourceHint, type ReaderContext } from "./reader";
import { headOf, jsonValues, MalformedFileError, sniff } from "./stream";
import { crownCaseName, judgmentTitle, plKindWord } from "./title";
import type { ImportJudge, JudgmentRecord, Position, ReadItem, SourceReference } from "./types";
import { child, isEl, xmlStringTree, type XmlElement, type XmlNode } from "./xml";

type Row = Record<string, unknown>;
const isObj = (v: unknown): v is Row => !!v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);

export const PL_COURT_RAW_URL = "https://huggingface.co/datasets/JuDDGES/pl-court-raw";
const EN_COURT_RAW_URL = "https://huggingface.co/datasets/JuDDGES/en-court-raw";
const EN_APPEALCOURT_URL = "https://huggingface.co/datasets/JuDDGES/en-appealcourt";
const EN_LICENCE = "Dataset JuDDGES (CC BY 4.0); judgments from Find Case Law, Open Justice Licence (The National Archives): computational analysis needs a separate licence from TNA";

/** Current name → v1 name of every pl-court-raw column the importer reads. */
const V1: Record<string, string> = {
  judgment_id: "_id",
  docket_number: "signature",
  judgment_date: "date",
  publication_date: "publicationDate",
  last_update: "lastUpdate",
  court_id: "courtId",
  department_id: "departmentId",
  judgment_type: "type",
  presiding_judge: "chairman",
  full_text: "text",
  xml_content: "content",
  legal_bases: "legalBases",
  extracted_legal_bases: "text_legal_bases",
  keywords: "themePhrases",
  volume_number: "vol_number",
  volume_type: "vol_type",
};

function col(row: Row, name: string): unknown {
  const v = row[name];
  if (v !== undefined && v !== null) return v;
  const old = V1[name];
  return old ? row[old] : undefined;
}

type Dataset = "pl-court-raw" | "en-court-raw" | "en-appealcourt";

function datasetOf(keys: readonly string[]): Dataset | null {
  const has = (k: string) => keys.includes(k);
  if (has("context") && has("output")) return "en-appealcourt";
  if (has("citation") && (has("judgment_id") || has("_id"))) return "en-court-raw";
  if ((has("judgment_id") || has("_id")) && (has("docket_number") || has("signature"))) return "pl-court-raw";
  return null;
}

/** Columns a file must have, per dataset (each entry: alternatives). */
const REQUIRED: Record<Dataset, string[][]> = {
  "pl-court-raw": [["judgment_id", "_id"], ["docket_number", "signature"], ["judgment_date", "date"], ["full_text", "text", "xml_content", "content"]],
  "en-court-raw": [["judgment_id", "_id"], ["citation"], ["full_text", "content"]],
  "en-appealcourt": [["context"], ["output"]],
};

function missingColumns(dataset: Dataset, keys: readonly string[]): string[] {
  return REQUIRED[dataset].filter((alts) => !alts.some((a) => keys.includes(a))).map((alts) => alts.join(" or "));
}

export async function* readJuddges(file: string, ctx: ReaderContext): AsyncGenerator<ReadItem> {
  const head = await headOf(file);
  const kind = sniff(head);
  if (kind === "parquet") {
    yield* readParquet(file, ctx);
    return;
  }
  if (kind !== "json-object" && kind !== "json-array") {
    yield { kind: "file-error", pos: { file, at: "byte 0" }, reason: `not a JuDDGES parquet or JSON file: ${wrongSourceHint(kind)}` };
    return;
  }
  let n = 0;
  for await (const { value, line } of jsonValues(file, kind === "json-array" ? "array" : "values", ctx.onBytes)) {
    n++;
    const item = rowItem(value, file, n, ctx.today, n === 1, undefined, line);
    yield item;
    if (item.kind === "file-error" || ctx.stop()) return;
  }
}

async function* readParquet(file: string, ctx: ReaderContext): AsyncGenerator<ReadItem> {
  let buffer;
  let metadata;
  try {
    buffer = await asyncBufferFromFile(file);
    metadata = await parquetMetadataAsync(buffer);
  } catch (e) {
    throw new MalformedFileError(`malformed parquet footer: ${(e as Error).message}`, "footer");
  }
  const columns = parquetSchema(metadata).children.map((c) => c.element.name);
  const dataset = datasetOf(columns);
  if (!dataset) {
    yield { kind: "file-error", pos: { file, at: "schema" }, reason: `file of the wrong source: parquet columns ${columns.slice(0, 8).join(", ")} are not a JuDDGES dataset (or its id/docket columns are missing)` };
    return;
  }
  const missing = missingColumns(dataset, columns);
  if (missing.length) {
    yield { kind: "file-error", pos: { file, at: "schema" }, reason: `parquet file of ${dataset} lacks column(s): ${missing.join("; ")}` };
    return;
  }
  let rowStart = 0;
  let n = 0;
  for (const [g, rg] of metadata.row_groups.entries()) {
    const rowEnd = rowStart + Number(rg.num_rows);
    let rows: Row[];
    try {
      rows = (await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd, compressors })) as Row[];
    } catch (e) {
      throw new MalformedFileError(`malformed parquet row group ${g} (rows ${rowStart}-${rowEnd - 1}): ${(e as Error).message}`, `row group ${g}`);
    }
    for (const row of rows) {
      n++;
      yield rowItem(row, file, n, ctx.today, false, dataset);
      if (ctx.stop()) return;
    }
    // Progress by row groups read: their compressed sizes over the file's.
    ctx.onBytes(Number(rg.total_byte_size ?? 0) > 0 ? Math.round(((g + 1) / metadata.row_groups.length) * buffer.byteLength) : buffer.byteLength);
    rowStart = rowEnd;
  }
}

function rowItem(value: unknown, file: string, n: number, today: Date, first: boolean, known?: Dataset, line?: number): ReadItem {
  if (!isObj(value)) return { kind: "rejected", pos: { file, record: n, line }, reason: "not a JSON object" };
  const keys = Object.keys(value);
  const dataset = known ?? datasetOf(keys);
  const idRaw = col(value, "judgment_id");
  const pos = { file, record: n, line, id: typeof idRaw === "string" ? idRaw : undefined };
  if (!dataset) {
    const reason = `not a JuDDGES row (no judgment_id/_id with docket_number/signature, nor context/output): keys ${keys.slice(0, 6).join(", ")}`;
    return first ? { kind: "file-error", pos, reason: `file of the wrong source: ${reason}` } : { kind: "rejected", pos, reason };
  }
  if (!known) {
    const missing = missingColumns(dataset, keys);
    if (missing.length) return { kind: "rejected", pos, reason: `row of ${dataset} lacks field(s): ${missing.join("; ")}` };
  }
  if (dataset === "en-appealcourt") return mapAppealCourt(value, pos, today);
  if (dataset === "en-court-raw") return mapEnCourtRaw(value, pos, today);
  return mapPlCourtRaw(value, pos, today);
}

/** A date column as YYYY-MM-DD: a parquet timestamp (Date, the day in Poland), or v1 text "1994-07-20 02:00:00.0 CEST". */
function dateText(v: unknown): string | null {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "invalid" : new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Warsaw" }).format(v);
  if (typeof v === "bigint" || typeof v === "number") return dateText(new Date(Number(v)));
  return nonEmpty(v);
}

function list(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string" && v.trim().startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(v);
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }
  return [];
}

function strings(v: unknown): string[] {
  return list(v).filter((x): x is string => typeof x === "string" && x.trim() !== "").map((x) => x.trim());
}

function num(v: unknown): number | undefined {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number" && Number.isFinite(v)) return v;
  return undefined;
}

const LEVELS = ["Sąd Apelacyjny", "Sąd Okręgowy", "Sąd Rejonowy", "Sąd Najwyższy", "Naczelny Sąd Administracyjny", "Wojewódzki Sąd Administracyjny", "Sąd Wojewódzki"];

function mapPlCourtRaw(row: Row, pos: Position, today: Date): ReadItem {
  const id = nonEmpty(col(row, "judgment_id"));
  if (!id) return { kind: "rejected", pos, reason: "no judgment_id" };
  const date = checkDate(dateText(col(row, "judgment_date")), "judgment_date", today);
  if ("problem" in date) return { kind: "rejected", pos, reason: date.problem };
  const published = checkDate(dateText(col(row, "publication_date")), "publication_date", today);
  if ("problem" in published) return { kind: "rejected", pos, reason: published.problem };

  const warnings: string[] = [];
  const judges: ImportJudge[] = [];
  const presiding = nonEmpty(col(row, "presiding_judge"));
  if (presiding) judges.push({ name: presiding, role: "presiding" });
  for (const name of strings(col(row, "judges"))) if (!judges.some((j) => j.name === name)) judges.push({ name, role: null });
  for (const j of judges) {
    const problem = judgeNameProblem(j.name);
    if (problem) warnings.push(problem);
  }

  const xml = nonEmpty(col(row, "xml_content"));
  let fullHtml: string | null = null;
  let xmlText = "";
  if (xml) {
    let tree: XmlElement;
    try {
      tree = xmlStringTree(xml);
    } catch (e) {
      return { kind: "rejected", pos, reason: `xml_content: ${(e as Error).message}` };
    }
    const s = sanitiseWithText(renderPortalXml(tree));
    if ("problem" in s) return { kind: "rejected", pos, reason: `xml_content: ${s.problem}` };
    fullHtml = s.html;
    xmlText = s.text;
  }
  const fullText = nonEmpty(col(row, "full_text"))?.replace(/\r\n?/g, "\n") ?? xmlText;
  if (!fullText) return { kind: "rejected", pos, reason: "missing text (full_text and xml_content are empty)" };

  const references: SourceReference[] = [];
  for (const b of list(col(row, "extracted_legal_bases"))) {
    if (!isObj(b)) continue;
    const text = nonEmpty(b.text) ?? nonEmpty(b.title);
    if (!text) continue;
    references.push({
      kind: "legislation",
      text,
      isap_id: nonEmpty(b.isap_id) ?? undefined,
      provisions: nonEmpty(b.art) ?? undefined,
      journal: { title: nonEmpty(b.title) ?? undefined, ...journalAddress(nonEmpty(b.address)) },
      from: "extracted_legal_bases",
    });
  }
  for (const r of strings(col(row, "references"))) references.push({ kind: "legislation", text: r, from: "references" });
  const legalBases = strings(col(row, "legal_bases"));
  for (const b of legalBases) references.push({ kind: "legislation", text: b, from: "legal_bases" });

  const courtName = nonEmpty(col(row, "court_name"));
  const department = nonEmpty(col(row, "department_name"));
  const docket = nonEmpty(col(row, "docket_number"));
  const kind = nonEmpty(col(row, "judgment_type"));
  const record: JudgmentRecord = {
    source: "juddges",
    source_id: id,
    source_url: PL_COURT_RAW_URL,
    licence: LICENCES.juddges,
    jurisdiction: "PL",
    case_number: docket,
    title: judgmentTitle({ jurisdiction: "PL", kind, courtName, date: date.date, caseNumbers: docket ? [docket] : [] }),
    summary: nonEmpty(col(row, "excerpt")) ?? excerpt(fullText),
    court_name: courtName,
    court_level: courtName ? (LEVELS.find((l) => courtName.startsWith(l)) ?? null) : null,
    case_type: department ? (/karn/i.test(department) ? "Karna" : /cywil/i.test(department) ? "Cywilna" : null) : null,
    decision_type: kind ? plKindWord(kind) : null,
    decision_date: date.date,
    publication_date: published.date,
    judges,
    keywords: strings(col(row, "keywords")),
    cited_legislation: legalBases,
    full_text: fullText,
    full_html: fullHtml,
    source_references: references,
    metadata: {
      language: "pl",
      dataset: "pl-court-raw",
      schema: "judgment_id" in row ? "current" : "v1",
      division: department ?? undefined,
      court_id: nonEmpty(col(row, "court_id")) ?? undefined,
      department_id: nonEmpty(col(row, "department_id")) ?? undefined,
      judgment_type: kind ?? undefined,
      recorder: nonEmpty(col(row, "recorder")) ?? undefined,
      publisher: nonEmpty(col(row, "publisher")) ?? undefined,
      reviser: nonEmpty(col(row, "reviser")) ?? undefined,
      thesis: nonEmpty(col(row, "thesis")) ?? undefined,
      page_count: num(col(row, "num_pages")),
      volume_number: num(col(row, "volume_number")),
      volume_type: nonEmpty(col(row, "volume_type")) ?? undefined,
      country: nonEmpty(row.country) ?? undefined,
    },
  };
  return { kind: "record", record, pos, warnings };
}

/** "Dz. U. z 1964 r. Nr 43, poz. 296" → {year, number, entry}. */
function journalAddress(address: string | null): { year?: number; number?: number; entry?: number } {
  if (!address) return {};
  const y = /z (\d{4}) r\./.exec(address);
  const nr = /Nr (\d+)/.exec(address);
  const poz = /poz\. (\d+)/.exec(address);
  return { year: y ? Number(y[1]) : undefined, number: nr ? Number(nr[1]) : undefined, entry: poz ? Number(poz[1]) : undefined };
}

/** Neutral citation → the court's name (the citation is a structured field of en-court-raw). */
function ukCourtOf(citation: string | null): { name: string | null; level: string | null; caseType: string | null } {
  if (!citation) return { name: null, level: null, caseType: null };
  if (/EWCA Crim/i.test(citation)) return { name: "Court of Appeal (Criminal Division)", level: "Court of Appeal", caseType: "Criminal" };
  if (/EWCA Civ/i.test(citation)) return { name: "Court of Appeal (Civil Division)", level: "Court of Appeal", caseType: "Civil" };
  if (/UKSC/i.test(citation)) return { name: "Supreme Court of the United Kingdom", level: "Supreme Court", caseType: null };
  if (/EWHC/i.test(citation)) return { name: "High Court of Justice", level: "High Court", caseType: null };
  return { name: null, level: null, caseType: null };
}

/** "R v Surname" from the title block (the first lines) when the row has no case name. */
function titleBlockName(text: string): string | null {
  const head = text.slice(0, 4000);
  // "R v Smith", "REGINA v SMITH", and the cover page's spaced "R E G I N A" / "v" / "JOHN SMITH" on lines of their own.
  const m = /\b(?:R\s?E\s?G\s?I\s?N\s?A|REX|THE KING|THE QUEEN|R)\s+-?\s*v\.?\s+-?\s*([A-Z][A-Za-z'’-]+(?:[ \t]+[A-Z][A-Za-z'’-]+){0,4})/.exec(head);
  return m ? crownCaseName(m[1]) : null;
}

function mapEnCourtRaw(row: Row, pos: Position, today: Date): ReadItem {
  const id = nonEmpty(col(row, "judgment_id"));
  if (!id) return { kind: "rejected", pos, reason: "no judgment_id" };
  const citation = nonEmpty(row.citation);
  const published = checkDate(dateText(row.publication_date ?? row.date), "publication_date", today);
  if ("problem" in published) return { kind: "rejected", pos, reason: published.problem };
  const text = nonEmpty(row.full_text ?? row.content)?.replace(/\r\n?/g, "\n");
  if (!text) return { kind: "rejected", pos, reason: "missing text (full_text is empty)" };
  const warnings: string[] = [];
  const judges = strings(row.judges).map((name) => ({ name, role: null }));
  for (const j of judges) {
    const problem = judgeNameProblem(j.name);
    if (problem) warnings.push(problem);
  }
  const docket = nonEmpty(row.docket_number ?? row.signature);
  const court = ukCourtOf(citation);
  const record: JudgmentRecord = {
    source: "juddges",
    source_id: id,
    source_url: httpUrl(row.uri) ?? EN_COURT_RAW_URL,
    licence: EN_LICENCE,
    jurisdiction: "UK",
    case_number: citation ?? docket,
    title: judgmentTitle({ jurisdiction: "UK", caseName: titleBlockName(text), neutralCitation: citation, caseNumbers: docket ? [docket] : [] }),
    summary: nonEmpty(row.excerpt) ?? excerpt(text),
    court_name: court.name,
    court_level: nonEmpty(row.court_type) ?? court.level,
    case_type: court.caseType,
    decision_type: "Judgment",
    decision_date: null,
    publication_date: published.date,
    judges,
    keywords: [],
    cited_legislation: [],
    full_text: text,
    full_html: null,
    source_references: [],
    metadata: {
      language: "en",
      dataset: "en-court-raw",
      neutral_citation: citation ?? undefined,
      docket_number: docket ?? undefined,
      xml_url: httpUrl(row.xml_uri) ?? undefined,
      file_name: nonEmpty(row.file_name) ?? undefined,
    },
  };
  return { kind: "record", record, pos, warnings };
}

function mapAppealCourt(row: Row, pos: Position, today: Date): ReadItem {
  void today;
  const text = nonEmpty(row.context)?.replace(/\r\n?/g, "\n");
  if (!text) return { kind: "rejected", pos, reason: "missing text (context is empty)" };
  // The rows carry no id: the text's hash is the stable key, so a re-import finds the same row.
  const id = `en-appealcourt-${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
  const ncn = /Neutral Citation(?: Number)?:?\s*(\[\d{4}\]\s+EWCA\s+Crim\s+\d+)/i.exec(text.slice(0, 4000))?.[1] ?? null;
  let output: unknown = row.output;
  if (typeof output === "string") {
    try {
      output = JSON.parse(output);
    } catch {
      return { kind: "rejected", pos: { ...pos, id }, reason: "output is not JSON" };
    }
  }
  const record: JudgmentRecord = {
    source: "juddges",
    source_id: id,
    source_url: EN_APPEALCOURT_URL,
    licence: EN_LICENCE,
    jurisdiction: "UK",
    case_number: ncn,
    title: judgmentTitle({ jurisdiction: "UK", caseName: titleBlockName(text), neutralCitation: ncn }),
    summary: excerpt(text),
    court_name: "Court of Appeal (Criminal Division)",
    court_level: "Court of Appeal",
    case_type: "Criminal",
    decision_type: "Judgment",
    decision_date: null,
    publication_date: null,
    judges: [],
    keywords: [],
    cited_legislation: [],
    full_text: text,
    full_html: null,
    source_references: [],
    metadata: { language: "en", dataset: "en-appealcourt", annotations: isObj(output) ? output : undefined },
  };
  return { kind: "record", record, pos: { ...pos, id }, warnings: [] };
}

// ---- Portal Orzeczeń XML → HTML --------------------------------------------------------------------------------

const TAGS: Record<string, string> = {
  xBlock: "div",
  xBx: "strong",
  xI: "em",
  xU: "u",
  xEnum: "ul",
  xEnumElem: "li",
  xRows: "table",
  xRow: "tr",
  xClmn: "td",
};

export function renderPortalXml(root: XmlElement): string {
  const out: string[] = [];
  const part = root.children.find(isEl);
  if (part) render(part, out, 0);
  return out.join("");
}

/** A plain loop rather than a closure per element (tsx wraps every closure in a naming helper: a cost per element). */
function renderAll(nodes: readonly XmlNode[], out: string[], inP: number) {
  for (const c of nodes) render(c, out, inP);
}

function render(n: XmlNode, out: string[], inP: number) {
  if (typeof n === "string") {
    out.push(escapeHtml(n.replace(/[ \t\r\n]+/g, " ")));
    return;
  }
  switch (n.name) {
    case "xPart":
      renderAll(n.children, out, inP);
      return;
    case "xName":
    case "xTitle": {
      const text = n.children.filter((c): c is string => typeof c === "string").join("").replace(/\+/g, " i ").trim();
      if (inP) {
        out.push(`<strong>${escapeHtml(text)}</strong> `);
        return;
      }
      out.push(`<h3 class="judgment-heading">${escapeHtml(text)}</h3>`);
      return;
    }
    case "xUnit": {
      out.push("<section>");
      const name = child(n, "xName");
      if (name && n.attrs.xIsTitle === "true") render(name, out, inP);
      for (const c of n.children) if (c !== name || n.attrs.xIsTitle !== "true") render(c, out, inP);
      out.push("</section>");
      return;
    }
    case "xText":
      if (inP) {
        out.push("<br>");
        renderAll(n.children, out, inP);
        return;
      }
      out.push("<p>");
      renderAll(n.children, out, inP + 1);
      out.push("</p>");
      return;
    case "xAnon":
      out.push('<span class="anon">');
      renderAll(n.children, out, inP);
      out.push("</span>");
      return;
    case "xLexLink":
      out.push('<span class="ref" data-ref-type="legislation">');
      renderAll(n.children, out, inP);
      out.push("</span>");
      return;
    case "xBullet":
      out.push(`<span class="num">${escapeHtml(n.children.filter((c): c is string => typeof c === "string").join("").trim())}</span> `);
      return;
    default: {
      const tag = TAGS[n.name];
      if (tag && !(inP && (tag === "div" || tag === "table" || tag === "ul"))) {
        out.push(`<${tag}>`);
        renderAll(n.children, out, tag === "td" || tag === "li" ? 0 : inP);
        out.push(`</${tag}>`);
        return;
      }
      renderAll(n.children, out, inP);
    }
  }
}
