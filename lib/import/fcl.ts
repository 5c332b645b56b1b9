/**
 * Find Case Law (The National Archives): LegalDocML / Akoma Ntoso 3.0 judgment XML, and Atom feed pages. A judgment
 * maps from its FRBR metadata and `uk:` proprietary fields (never from the text); the body is rendered to sanitised
 * HTML with paragraph numbers kept and every `<ref>` kept as a structured reference. An Atom page yields its entries
 * (the document URIs for the operator's own fetch), not judgments.
 */
import { escapeHtml } from "@/lib/text/html";
import { checkDate, excerpt, httpUrl, judgeNameProblem, LICENCES, sanitiseWithText } from "./common";
import { wrongSourceHint, type ReaderContext } from "./reader";
import { headOf, sniff } from "./stream";
import { judgmentTitle } from "./title";
import type { FeedEntry, ImportJudge, JudgmentRecord, ReadItem, SourceReference } from "./types";
import { child, children, find, findAll, hasText, isEl, textOf, xmlFileTree, type XmlElement, type XmlNode } from "./xml";

const ID_PREFIX = "https://caselaw.nationalarchives.gov.uk/id/";

/** Court code → level and case type (the codes of uk:court; unknown ones keep the code). */
function courtFacts(code: string | null): { level: string | null; caseType: string | null } {
  if (!code) return { level: null, caseType: null };
  const c = code.toUpperCase();
  const caseType = /CRIM/.test(c) ? "Criminal" : /CIVIL|CIV\b/.test(c) ? "Civil" : null;
  const level = c.startsWith("EWCA")
    ? "Court of Appeal"
    : c.startsWith("UKSC")
      ? "Supreme Court"
      : c.startsWith("UKPC")
        ? "Privy Council"
        : c.startsWith("EWHC")
          ? "High Court"
          : c.startsWith("UKUT")
            ? "Upper Tribunal"
            : c.startsWith("UKFTT")
              ? "First-tier Tribunal"
              : c.startsWith("EAT") || c.startsWith("UKEAT")
                ? "Employment Appeal Tribunal"
                : c.startsWith("EWCOP")
                  ? "Court of Protection"
                  : c.startsWith("EWFC")
                    ? "Family Court"
                    : code;
  return { level, caseType };
}

export async function* readFcl(file: string, ctx: ReaderContext): AsyncGenerator<ReadItem> {
  const kind = sniff(await headOf(file, 4096));
  if (kind !== "xml") {
    yield { kind: "file-error", pos: { file, at: "byte 0" }, reason: `not a Find Case Law XML file: ${wrongSourceHint(kind)}` };
    return;
  }
  const tree = await xmlFileTree(file, { skip: new Set(["presentation", "style"]) }, ctx.onBytes);
  const root = tree.children.find(isEl);
  if (root?.name === "feed") {
    let n = 0;
    for (const entry of children(root, "entry")) {
      n++;
      yield detached({ kind: "feed-entry", entry: feedEntry(entry), pos: { file, record: n } });
    }
    return;
  }
  if (root?.name !== "akomaNtoso") {
    yield { kind: "file-error", pos: { file, at: "root element" }, reason: `file of the wrong source: root element <${root?.name ?? "none"}> is not akomaNtoso or an Atom feed` };
    return;
  }
  yield detached(mapAkn(root, file, ctx.today));
}

/**
 * The item with strings of its own. The names, ids and dates taken from the XML are saxes' slices of the file's decoded
 * text: each would keep the whole file in memory for as long as it lives, and some live for the whole run (the court
 * name in the run's citation index, ids and names in the summary): ~100 kB per judgment, a gigabyte over 10,000 files.
 * The text and HTML are built afresh already and are not copied again.
 */
function detached(item: ReadItem): ReadItem {
  if (item.kind !== "record") return structuredClone(item);
  const { full_text, full_html } = item.record;
  const copy = structuredClone({ ...item, record: { ...item.record, full_text: "", full_html: null as string | null } });
  copy.record.full_text = full_text;
  copy.record.full_html = full_html;
  return copy;
}

function feedEntry(e: XmlElement): FeedEntry {
  const links = children(e, "link");
  const link = (pred: (l: XmlElement) => boolean) => httpUrl(links.find(pred)?.attrs.href ?? null);
  const ident = (type: string) => children(e, "identifier").find((i) => i.attrs.type === type);
  return {
    uri: textOf(child(e, "uri")) || null,
    xml_url: link((l) => l.attrs.type === "application/akn+xml"),
    html_url: link((l) => l.attrs.rel === "alternate" && !l.attrs.type),
    title: textOf(child(e, "title")) || null,
    citation: ident("ukncn") ? textOf(ident("ukncn") ?? null) : null,
    court: textOf(child(child(e, "author"), "name")) || null,
    published: textOf(child(e, "published")) || null,
    updated: textOf(child(e, "updated")) || null,
    content_hash: textOf(child(e, "contenthash")) || null,
  };
}

export function mapAkn(root: XmlElement, file: string, today = new Date()): ReadItem {
  const doc = root.children.find((c): c is XmlElement => isEl(c) && (c.name === "judgment" || c.name === "doc"));
  const meta = child(doc ?? null, "meta");
  const ident = child(meta, "identification");
  const work = child(ident, "FRBRWork");
  const workUri = child(work, "FRBRthis")?.attrs.value ?? "";
  const sourceId = workUri.startsWith(ID_PREFIX) ? workUri.slice(ID_PREFIX.length) : workUri;
  const pos = { file, record: 1, id: sourceId || undefined };
  if (!doc || !meta) return { kind: "rejected", pos, reason: "no <judgment> with <meta>: not a Find Case Law judgment" };
  if (!sourceId) return { kind: "rejected", pos, reason: "no FRBRWork/FRBRthis (the document URI)" };

  const prop = child(meta, "proprietary");
  const ukField = (name: string) => textOf(child(prop, name)) || null;
  const header = find(doc, "header");
  const ncn = ukField("cite") ?? (header ? textOf(find(header, "neutralCitation")) || null : null);
  const frbrDate = child(work, "FRBRdate");
  const date = checkDate(frbrDate?.attrs.date ?? null, "FRBRWork/FRBRdate", today);
  if ("problem" in date) return { kind: "rejected", pos, reason: date.problem };

  const refs = child(meta, "references");
  const tlc = new Map<string, string>();
  for (const c of refs?.children ?? []) if (isEl(c) && c.attrs.eId) tlc.set(`#${c.attrs.eId}`, c.attrs.showAs ?? "");
  const courtCode = ukField("court");
  const author = child(work, "FRBRauthor")?.attrs.href;
  const courtName = (author && tlc.get(author)) || (header ? textOf(find(header, "courtType")) || null : null) || courtCode;
  const { level, caseType } = courtFacts(courtCode);

  const warnings: string[] = [];
  const judges: ImportJudge[] = [];
  for (const j of header ? findAll(header, "judge") : []) {
    const name = (j.attrs.refersTo && tlc.get(j.attrs.refersTo)) || textOf(j);
    if (!name || judges.some((x) => x.name === name)) continue;
    judges.push({ name, role: null });
    const problem = judgeNameProblem(name);
    if (problem) warnings.push(problem);
  }
  if (!judges.length) warnings.push("no <judge> markup in the header: judges left empty (not guessed from the text)");

  const parties = (header ? findAll(header, "party") : []).map((p) => ({
    name: (p.attrs.refersTo && tlc.get(p.attrs.refersTo)) || textOf(p),
    role: (p.attrs.as && tlc.get(p.attrs.as)) || p.attrs.as?.replace(/^#/, "") || null,
  }));
  const docket = header ? findAll(header, "docketNumber").map(textOf).filter(Boolean) : [];
  const caseNumbers = ukField("caseNumber") ? [ukField("caseNumber") as string] : docket;
  const frbrName = child(work, "FRBRname")?.attrs.value?.trim() || null;
  const docTitle = header ? textOf(find(header, "docTitle")) || null : null;
  const partiesName = partiesCaseName(parties);
  const caseName = frbrName || docTitle || partiesName;

  const references: SourceReference[] = [];
  const html = renderAkn(doc, references);
  const s = sanitiseWithText(html);
  if ("problem" in s) return { kind: "rejected", pos, reason: s.problem };
  const body = find(doc, "judgmentBody") ?? find(doc, "mainBody");
  const fullText = s.text;
  if (!body || !hasText(body)) return { kind: "rejected", pos, reason: "missing text (no judgmentBody content)" };

  const expression = child(child(ident, "FRBRExpression"), "FRBRthis")?.attrs.value;
  const manifestation = child(child(ident, "FRBRManifestation"), "FRBRthis")?.attrs.value;
  const lowerCitations = header ? findAll(header, "neutralCitation").map(textOf).filter((c) => c && c !== ncn) : [];

  const record: JudgmentRecord = {
    source: "fcl",
    source_id: sourceId,
    source_url: httpUrl(expression) ?? httpUrl(workUri),
    licence: LICENCES.fcl,
    jurisdiction: "UK",
    case_number: ncn ?? (caseNumbers.length ? caseNumbers.join(", ") : null),
    title: judgmentTitle({ jurisdiction: "UK", caseName, neutralCitation: ncn, caseNumbers, courtName }),
    summary: excerpt(fullText),
    court_name: courtName,
    court_level: level,
    case_type: caseType,
    decision_type: doc.attrs.name ? doc.attrs.name.charAt(0).toUpperCase() + doc.attrs.name.slice(1) : null,
    decision_date: date.date,
    publication_date: null,
    judges,
    keywords: [],
    cited_legislation: [...new Set(references.filter((r) => r.kind === "legislation").map((r) => r.provisions ?? r.text))],
    full_text: fullText,
    full_html: s.html,
    source_references: references,
    metadata: {
      language: "en",
      neutral_citation: ncn ?? undefined,
      court_code: courtCode ?? undefined,
      year: ukField("year") ?? undefined,
      number: ukField("number") ?? undefined,
      case_numbers: caseNumbers,
      date_kind: frbrDate?.attrs.name ?? undefined,
      parties,
      lower_court_citations: lowerCitations,
      jurisdiction: ukField("jurisdiction") ?? undefined,
      xml_url: httpUrl(manifestation) ?? undefined,
      parser: ukField("parser") ?? undefined,
      hash: ukField("hash") ?? undefined,
      enrichment: ukField("tna-enrichment-engine") ?? undefined,
    },
  };
  return { kind: "record", record, pos, warnings };
}

/** "A v B" from party markup (first party of the first role against the first of another), when the source tags both. */
function partiesCaseName(parties: { name: string; role: string | null }[]): string | null {
  if (parties.length < 2) return null;
  const first = parties[0];
  const other = parties.find((p) => p.role !== first.role);
  return other ? `${first.name} v ${other.name}` : null;
}

// ---- body rendering -------------------------------------------------------------------------------------------

const BLOCKS: Record<string, string> = {
  p: "p",
  table: "table",
  tr: "tr",
  td: "td",
  th: "th",
  ul: "ul",
  ol: "ol",
  li: "li",
  blockList: "ul",
  item: "li",
  block: "blockquote",
  embeddedStructure: "div",
  level: "section",
  hcontainer: "section",
  subparagraph: "div",
  content: "div",
  intro: "div",
  wrapUp: "div",
  list: "div",
  decision: "div",
  judgmentBody: "div",
  header: "div",
  tblock: "div",
  conclusions: "div",
};
const INLINE: Record<string, string> = { b: "strong", i: "em", u: "u", sup: "sup", sub: "sub", span: "span" };
const DROP = new Set(["meta", "img", "presentation", "style", "tocItem", "marker"]);

interface RenderCtx {
  references: SourceReference[];
  /** A paragraph's number waiting for the paragraph's first <p>, so "1. The main issue…" reads as one line. */
  num: string | null;
}

/** The header, body and attachments of a judgment as HTML (before sanitising), its `<ref>`s appended to `references`. */
export function renderAkn(doc: XmlElement, references: SourceReference[]): string {
  const out: string[] = [];
  const ctx: RenderCtx = { references, num: null };
  const header = child(doc, "header");
  const body = child(doc, "judgmentBody") ?? child(doc, "mainBody");
  if (header) renderChildren(header, out, ctx);
  if (body) renderChildren(body, out, ctx);
  for (const c of doc.children) if (isEl(c) && c.name === "attachments") renderChildren(c, out, ctx);
  return out.join("");
}

function renderChildren(el: XmlElement, out: string[], ctx: RenderCtx) {
  for (const c of el.children) renderNode(c, out, ctx);
}

function numSpan(num: string): string {
  return `<span class="num">${escapeHtml(num)}</span> `;
}

function renderNode(n: XmlNode, out: string[], ctx: RenderCtx) {
  if (typeof n === "string") {
    out.push(escapeHtml(n.replace(/\s+/g, " ")));
    return;
  }
  if (DROP.has(n.name)) return;
  if (n.name === "br") {
    out.push("<br>");
    return;
  }
  if (n.name === "paragraph") {
    const num = child(n, "num");
    const eid = n.attrs.eId ? ` data-eid="${escapeHtml(n.attrs.eId)}"` : "";
    const numText = num ? textOf(num) : "";
    out.push(`<div class="para"${eid}${numText ? ` data-num="${escapeHtml(numText)}"` : ""}>`);
    ctx.num = numText || null;
    for (const c of n.children) if (c !== num) renderNode(c, out, ctx);
    if (ctx.num) out.push(numSpan(ctx.num));
    ctx.num = null;
    out.push("</div>");
    return;
  }
  if (n.name === "num") {
    out.push(numSpan(textOf(n)));
    return;
  }
  if (n.name === "heading") {
    out.push('<h3 class="judgment-heading">');
    renderChildren(n, out, ctx);
    out.push("</h3>");
    return;
  }
  if (n.name === "ref") {
    const ref = akomaRef(n);
    ctx.references.push(ref);
    const href = ref.uri ? ` href="${escapeHtml(ref.uri)}"` : "";
    out.push(ref.uri ? `<a class="ref" data-ref-type="${ref.kind === "judgment" ? "case" : "legislation"}"${href}>` : `<span class="ref">`);
    renderChildren(n, out, ctx);
    out.push(ref.uri ? "</a>" : "</span>");
    return;
  }
  if (n.name === "authorialNote") {
    out.push(" <span>[");
    renderChildren(n, out, ctx);
    out.push("]</span>");
    return;
  }
  const block = BLOCKS[n.name];
  if (block) {
    const eid = n.attrs.eId && (block === "section" || block === "div") ? ` data-eid="${escapeHtml(n.attrs.eId)}"` : "";
    const span = block === "td" || block === "th" ? `${n.attrs.colspan ? ` colspan="${escapeHtml(n.attrs.colspan)}"` : ""}${n.attrs.rowspan ? ` rowspan="${escapeHtml(n.attrs.rowspan)}"` : ""}` : "";
    out.push(`<${block}${eid}${span}>`);
    if (block === "p" && ctx.num) {
      out.push(numSpan(ctx.num));
      ctx.num = null;
    }
    renderChildren(n, out, ctx);
    out.push(`</${block}>`);
    return;
  }
  const inline = INLINE[n.name];
  if (inline) {
    out.push(`<${inline}>`);
    renderChildren(n, out, ctx);
    out.push(`</${inline}>`);
    return;
  }
  // Semantic inline markup (neutralCitation, docTitle, judge, party, role, docDate, courtType, …): its text only.
  renderChildren(n, out, ctx);
}

function akomaRef(n: XmlElement): SourceReference {
  const type = n.attrs["uk:type"];
  const canonical = n.attrs["uk:canonical"]?.trim() || undefined;
  const uri = httpUrl(n.attrs.href) ?? undefined;
  const text = textOf(n);
  if (type === "legislation") return { kind: "legislation", text, uri, provisions: canonical, from: "ref" };
  return {
    kind: "judgment",
    text,
    citation: canonical,
    uri,
    generated: n.attrs["uk:origin"] === "TNA" ? true : undefined,
    from: "ref",
  };
}
