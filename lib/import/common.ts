/**
 * Checks and conversions every importer shares: licences per source, date plausibility, judges' names run together,
 * URL schemes, and the one HTML sanitiser (the page's allowlist, applied by ./sanitise) with its plain-text rendering.
 */
import sanitizeHtml from "sanitize-html";
import { httpUrlOf } from "@/lib/schema/text";
import { ALLOWLIST, paragraphs, sanitiseMarkup } from "./sanitise";
import type { ImportSource } from "./types";

/** Licence and attribution stored on every judgment of a source (shown on the judgment page). */
export const LICENCES: Record<ImportSource, string> = {
  saos:
    "Polish court judgment: official document excluded from copyright (Copyright Act, art. 4); via SAOS (saos.org.pl), public API",
  fcl:
    "Open Justice Licence, The National Archives (Find Case Law); computational analysis needs a separate licence from TNA",
  juddges:
    "Judgment: official document excluded from copyright (Polish Copyright Act, art. 4); dataset packaging JuDDGES, CC BY 4.0",
  jsonl: "as supplied by the operator",
};

/** Printed in the summary of a Find Case Law import (the import is not refused). */
export const FCL_NOTICE =
  "Find Case Law judgments are licensed under the Open Justice Licence, which does not permit computational analysis " +
  "(programmatic searching, extraction or enrichment) without a separate transactional licence from The National " +
  "Archives: https://caselaw.nationalarchives.gov.uk/open-justice-licence";

/** Earliest plausible judgment date: older dates are data-entry errors in these sources. */
const EARLIEST = "1900-01-01";

/**
 * `YYYY-MM-DD` of a source date, or a problem: not a date, before 1900 or after today (the SAOS samples carry
 * 2101-04-14 and 3013-12-04). Never corrected: the caller rejects the record.
 */
export function checkDate(raw: string | null | undefined, field: string, today = new Date()): { date: string | null } | { problem: string } {
  if (raw === null || raw === undefined || raw.trim() === "") return { date: null };
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw.trim());
  if (!m) return { problem: `${field} ${JSON.stringify(raw)} is not a date` };
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso) return { problem: `${field} ${JSON.stringify(raw)} is not a calendar date` };
  const todayIso = today.toISOString().slice(0, 10);
  if (iso > todayIso) return { problem: `${field} ${iso} is impossible (after today, ${todayIso})` };
  if (iso < EARLIEST) return { problem: `${field} ${iso} is impossible (before ${EARLIEST})` };
  return { date: iso };
}

const SURNAME_PREFIXES = new Set(["Mc", "Mac", "De", "Di", "Da", "Du", "La", "Le", "Van", "Von", "Fitz"]);

/**
 * Why a judge's name looks like two names run together ("Jacek Sikorski i Bogdan Gierzyński",
 * "Anna KowalskaJan Nowak", "A, B"), or null. The name is kept as the source gives it; the import reports it.
 */
export function judgeNameProblem(name: string): string | null {
  if (/\s(?:i|oraz|and|&)\s/i.test(name)) return `judge name ${JSON.stringify(name)} looks like two names joined by a conjunction`;
  // "KowalskaJan": a word of two capitalised parts, unless the first is a surname prefix (McGowan, MacKenzie, DeSilva).
  for (const m of name.matchAll(/(\p{Lu}\p{Ll}+)(\p{Lu}\p{Ll}+)/gu)) {
    if (!SURNAME_PREFIXES.has(m[1])) return `judge name ${JSON.stringify(name)} looks like two names run together`;
  }
  if (/[,;]/.test(name) && !/,\s*(?:Master of the Rolls|MR|KC|QC|LJ|J|P|VP|CJ|President of [^,]+)\s*$/i.test(name) && name.split(/[,;]/).filter((p) => p.trim().split(/\s+/).length >= 2).length >= 2)
    return `judge name ${JSON.stringify(name)} looks like a list of names`;
  return null;
}

/**
 * Links already checked (raw → normalised URL or null). A LegalDocML judgment links the same acts and judgments over
 * and over (the sample: 43 links, 24 distinct), and judgments of a run link the same acts; parsing each with `new URL`
 * was ~5% of reading one. Bounded: cleared when full.
 */
const HTTP_URLS = new Map<string, string | null>();
const HTTP_URLS_MAX = 20_000;

/** The URL, normalised, when it is http(s) (httpUrlOf, the rule isHttpUrl and the page use), else null. */
export function httpUrl(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const known = HTTP_URLS.get(raw);
  if (known !== undefined) return known;
  // Parsed once: a LegalDocML judgment has a link per <ref>.
  const url = httpUrlOf(raw.trim())?.toString() ?? null;
  if (HTTP_URLS.size >= HTTP_URLS_MAX) HTTP_URLS.clear();
  // A copy of the key: `raw` is usually a slice of a whole file's text, which it would keep alive.
  HTTP_URLS.set(structuredClone(raw), url);
  return url;
}

/**
 * The page's allowlist (ALLOWLIST in ./sanitise) as sanitize-html options. The document page applies it with
 * sanitize-html when serving; the importers with ./sanitise (the same allowlist, the same output, several times
 * faster; tests/unit/import-sanitise.test.ts compares the two).
 */
export const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWLIST.tags],
  allowedAttributes: ALLOWLIST.attributes,
  allowedClasses: { "*": [...ALLOWLIST.classes] },
  allowedSchemes: [...ALLOWLIST.schemes],
  allowedSchemesAppliedToAttributes: ["href"],
  disallowedTagsMode: "discard",
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: ALLOWLIST.linkRel }) },
};

/** Markup that sanitising would have to remove with its content: the record is rejected, never silently cleaned. */
const DANGEROUS = /<\s*(script|style|iframe|object|embed|form|frame|frameset|link|meta|base)\b|\son[a-z]+\s*=|(?:href|src)\s*=\s*["']?\s*(?:javascript|vbscript|data):/i;

/**
 * Sanitised HTML and its plain text (htmlToText of the HTML, read in the same pass), or the reason the HTML fails
 * sanitising. Every source's markup goes through here: SAOS `textContent` as the source gives it, Find Case Law and
 * Portal Orzeczeń XML as our renderers write it.
 */
export function sanitiseWithText(html: string): { html: string; text: string } | { problem: string } {
  const bad = DANGEROUS.exec(html);
  if (bad) return { problem: `HTML fails sanitising: ${JSON.stringify(bad[0].trim())} would be removed` };
  return sanitiseMarkup(html);
}

/** Sanitised HTML, or the reason the HTML fails sanitising. */
export function sanitiseHtml(html: string): { html: string } | { problem: string } {
  const s = sanitiseWithText(html);
  return "problem" in s ? s : { html: s.html };
}

const BLOCK = /<\/?(?:p|div|h[1-6]|li|tr|table|blockquote|section|ol|ul)\b[^>]*>|<br\s*\/?>/gi;

/**
 * Plain text of HTML that sanitiseHtml produced (well-formed, no comments, scripts or raw `<` in text): blocks become
 * blank-line-separated paragraphs, tags go, entities are decoded. The result is text, never rendered as HTML.
 */
export function htmlToText(html: string): string {
  const text = html.replace(/<!--[\s\S]*?-->/g, "").replace(BLOCK, "\n\n").replace(/<[^>]*>/g, "");
  return paragraphs(decodeEntities(text));
}

const ENTITY = /&(nbsp|lt|gt|quot|#39|apos|amp);|&#(\d+);|&#[xX]([0-9a-fA-F]+);/g;
const NAMED: Record<string, string> = { nbsp: "\u00a0", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", amp: "&" };

/** One pass over the text (a decoded `&amp;` never starts another entity: `&amp;lt;` stays `&lt;`). */
function decodeEntities(s: string): string {
  return s.replace(ENTITY, (_, named: string | undefined, dec: string | undefined, hex: string | undefined) =>
    named ? NAMED[named] : String.fromCodePoint(dec ? Number(dec) : parseInt(hex as string, 16)),
  );
}

/**
 * The opening of a text, cut at a word boundary (the `summary` when the source gives none, as the demo corpus does).
 * Only as much of the text as the excerpt needs is flattened, not the whole judgment.
 */
export function excerpt(text: string, max = 500): string {
  let take = max * 2;
  let flat = text.slice(0, take).replace(/\s+/g, " ").trimStart();
  // A long run of whitespace can shrink the slice below max: take more until it is long enough or the text ends.
  while (flat.length <= max + 1 && take < text.length) {
    take *= 2;
    flat = text.slice(0, take).replace(/\s+/g, " ").trimStart();
  }
  if (take >= text.length) flat = flat.trimEnd();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

export function nonEmpty(s: unknown): string | null {
  return typeof s === "string" && s.trim() !== "" ? s.trim() : null;
}

export function stringList(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is string => typeof x === "string" && x.trim() !== "").map((x) => x.trim());
}
