/**
 * The references a source marks itself, as canonical ids: SAOS `referencedRegulations` / `referencedCourtCases`,
 * JuDDGES `extracted_legal_bases` (v1 `text_legal_bases`) and `references`, LegalDocML `<ref>` (Find Case Law's
 * enrichment). An importer stores them; `extractReferences` merges them with the text's references; the quality
 * measure (lib/citations/quality.ts) takes them as the sources' own answers.
 */
import { findCitations } from "@/lib/search/citations";
import { plActByAddress, plAddressId, plActByName, plTitleId } from "./acts";
import { plProvisionId } from "./canonical";
import { extractCaseRefs } from "./case-refs";
import { parsePlProvisions } from "./legislation-refs";
import type { StructuredReference } from "./types";

/** The act id of a Dz. U. address (and title when the table does not know the address). */
function plActId(year: number, nr: number | null, poz: number, title: string | null): string {
  const a = plActByAddress(year, nr, poz) ?? (title ? plActByName(title) : null);
  if (a) return a.id;
  return (title ? plTitleId(title) : null) ?? plAddressId(year, nr, poz);
}

/** "art. 115; art. 115 § 16; art. 178 a" (SAOS/JuDDGES lists, `;`-separated) → provision ids of one act. */
function plProvisionIds(actId: string, list: string): string[] {
  const out: string[] = [];
  for (const item of list.split(";")) {
    for (const p of parsePlProvisions(item.trim())) out.push(plProvisionId(actId, p.article, p.levels));
  }
  return out;
}

function plRefs(ids: string[], text: string): StructuredReference[] {
  return ids.map((canonicalId) => ({ kind: "legislation", jurisdiction: "PL", canonicalId, text }));
}

/** A case number as a citation key (`pl:ii k 1130/13`); an unrecognised one keeps its folded text. */
export function caseKey(caseNumber: string): string {
  const c = findCitations(caseNumber)[0];
  return c ? c.key : `pl:${caseNumber.trim().toLowerCase().replace(/\s+/g, " ")}`;
}

interface SaosRegulation {
  journalTitle?: string | null;
  journalNo?: number | null;
  journalYear?: number | null;
  journalEntry?: number | null;
  text?: string | null;
}

export interface SaosJudgmentRefs {
  referencedRegulations?: SaosRegulation[] | null;
  referencedCourtCases?: Array<{ caseNumber?: string | null }> | null;
}

/** The provisions listed after the address: "(Dz. U. … poz. 553 - art. 115; art. 115 § 16)". */
const LIST_AFTER_ADDRESS = /poz\.\s*\d+\s*-\s*(.*)\)\s*$/;

export function saosStructuredRefs(j: SaosJudgmentRefs): StructuredReference[] {
  const out: StructuredReference[] = [];
  for (const r of j.referencedRegulations ?? []) {
    if (!r.journalYear || !r.journalEntry) continue;
    const act = plActId(r.journalYear, r.journalNo ?? null, r.journalEntry, r.journalTitle ?? null);
    const list = LIST_AFTER_ADDRESS.exec(r.text ?? "")?.[1] ?? "";
    const ids = plProvisionIds(act, list);
    out.push(...plRefs(ids.length > 0 ? ids : [`PL/${act}`], r.text ?? r.journalTitle ?? ""));
  }
  for (const c of j.referencedCourtCases ?? []) {
    if (c.caseNumber) out.push({ kind: "case", jurisdiction: "PL", canonicalId: caseKey(c.caseNumber), text: c.caseNumber });
  }
  return out;
}

export interface JuddgesLegalBasis {
  address?: string | null;
  art?: string | null;
  isap_id?: string | null;
  text?: string | null;
  title?: string | null;
}

export interface JuddgesRowRefs {
  extracted_legal_bases?: JuddgesLegalBasis[] | null;
  text_legal_bases?: JuddgesLegalBasis[] | null;
  references?: string[] | null;
}

/** ISAP ids name the Dz. U. address: `WDU19640430296` = 1964, Nr 43, poz. 296 (`WDU20150000396`: no number). */
function isapAddress(id: string): { year: number; nr: number | null; poz: number } | null {
  const m = /^W(?:DU|MP)(\d{4})(\d{3})(\d{4})$/.exec(id);
  if (!m) return null;
  const nr = Number(m[2]);
  return { year: Number(m[1]), nr: nr === 0 ? null : nr, poz: Number(m[3]) };
}

const ADDRESS_IN_TEXT = /Dz\.\s*U\.\s*z\s*(\d{4})\s*r\.\s*(?:Nr\s*(\d+),?\s*)?poz\.\s*(\d+)/;

export function juddgesStructuredRefs(row: JuddgesRowRefs): StructuredReference[] {
  const out: StructuredReference[] = [];
  for (const b of row.extracted_legal_bases ?? row.text_legal_bases ?? []) {
    const addr = (b.isap_id ? isapAddress(b.isap_id) : null) ?? parseAddress(b.address ?? "");
    if (!addr) continue;
    const act = plActId(addr.year, addr.nr, addr.poz, b.title ?? null);
    const ids = plProvisionIds(act, b.art ?? "");
    out.push(...plRefs(ids.length > 0 ? ids : [`PL/${act}`], b.text ?? ""));
  }
  for (const r of row.references ?? []) {
    const addr = parseAddress(r);
    if (!addr) continue;
    const title = r.slice(0, r.indexOf("(")).trim() || null;
    const act = plActId(addr.year, addr.nr, addr.poz, title);
    const ids = plProvisionIds(act, LIST_AFTER_ADDRESS.exec(r)?.[1] ?? "");
    out.push(...plRefs(ids.length > 0 ? ids : [`PL/${act}`], r));
  }
  return out;
}

function parseAddress(s: string): { year: number; nr: number | null; poz: number } | null {
  const m = ADDRESS_IN_TEXT.exec(s);
  return m ? { year: Number(m[1]), nr: m[2] ? Number(m[2]) : null, poz: Number(m[3]) } : null;
}

const REF_RE = /<ref\b([^>]*)>([\s\S]*?)<\/ref>/g;
const attr = (attrs: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(attrs)?.[1] ?? null;
const decode = (s: string) =>
  s.replace(/<[^>]+>/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'");

/** legislation.gov.uk ids: `/id/ukpga/1998/42/section/6/1` → `UK/ukpga/1998/42/s6/1`. */
export function ukLegislationHrefId(href: string): string | null {
  const m = /legislation\.gov\.uk\/(?:id\/)?(ukpga|uksi|asp|nia|anaw|asc|ukla)\/(\d{4})\/(\d+)(?:\/section\/(\d+[A-Z]*)((?:\/[0-9a-zA-Z]+)*))?\/?$/.exec(href);
  if (!m) return null;
  const act = `UK/${m[1]}/${m[2]}/${m[3]}`;
  if (!m[4]) return act;
  return `${act}/s${m[4].toUpperCase()}${(m[5] ?? "").toLowerCase()}`;
}

/** `<ref uk:type="case|legislation" …>` of an (enriched) LegalDocML judgment. */
export function legalDocMlStructuredRefs(xml: string): StructuredReference[] {
  const out: StructuredReference[] = [];
  for (const m of xml.matchAll(REF_RE)) {
    const attrs = m[1];
    const text = decode(m[2]).replace(/\s+/g, " ").trim();
    const type = attr(attrs, "uk:type");
    if (type === "case") {
      const canonical = decode(attr(attrs, "uk:canonical") ?? text);
      const c = extractCaseRefs(canonical)[0];
      if (c?.canonicalId) out.push({ kind: "case", jurisdiction: "UK", canonicalId: c.canonicalId, text });
    } else if (type === "legislation") {
      const id = ukLegislationHrefId(attr(attrs, "href") ?? "");
      if (id) out.push({ kind: "legislation", jurisdiction: "UK", canonicalId: id, text });
    }
  }
  return out;
}
