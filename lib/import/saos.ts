/**
 * SAOS (saos.org.pl) JSON: a `GET /api/judgments/{id}` response (`{links, data}`), a search or dump page
 * (`{links, items[], queryTemplate, info}`), a bare judgment object (a dump item), an array of them, or JSON Lines.
 * Streamed: a dump page of any size is read item by item. Field meanings: docs/ingestion.md, "SAOS".
 */
import { checkDate, excerpt, httpUrl, judgeNameProblem, LICENCES, nonEmpty, sanitiseWithText, stringList } from "./common";
import { headOf, jsonValues, sniff } from "./stream";
import { judgmentTitle, plKindWord } from "./title";
import type { ImportJudge, JudgmentRecord, ReadItem, SourceReference } from "./types";
import { wrongSourceHint, type ReaderContext } from "./reader";

const ROLE: Record<string, string> = {
  PRESIDING_JUDGE: "presiding",
  REPORTING_JUDGE: "reporting",
  REASONS_FOR_JUDGMENT_AUTHOR: "reasons author",
};

const COURT_TYPE: Record<string, { name: string | null; level: string }> = {
  SUPREME: { name: "Sąd Najwyższy", level: "Sąd Najwyższy" },
  CONSTITUTIONAL_TRIBUNAL: { name: "Trybunał Konstytucyjny", level: "Trybunał Konstytucyjny" },
  NATIONAL_APPEAL_CHAMBER: { name: "Krajowa Izba Odwoławcza", level: "Krajowa Izba Odwoławcza" },
  ADMINISTRATIVE: { name: null, level: "Sąd administracyjny" },
  COMMON: { name: null, level: "Sąd powszechny" },
};

const COMMON_LEVEL: Record<string, string> = { APPEAL: "Sąd Apelacyjny", REGIONAL: "Sąd Okręgowy", DISTRICT: "Sąd Rejonowy" };
const DIVISION_TYPE: Record<string, string> = { Karny: "Karna", Cywilny: "Cywilna", Gospodarczy: "Gospodarcza" };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

/** Does this object look like a SAOS judgment (full or reduced)? */
export function looksLikeSaos(v: Obj): boolean {
  return typeof v.courtType === "string" && (Array.isArray(v.courtCases) || "id" in v);
}

export async function* readSaos(file: string, ctx: ReaderContext): AsyncGenerator<ReadItem> {
  const head = await headOf(file);
  const kind = sniff(head);
  if (kind !== "json-object" && kind !== "json-array") {
    yield { kind: "file-error", pos: { file, at: "byte 0" }, reason: `not a SAOS JSON file: ${wrongSourceHint(kind)}` };
    return;
  }
  const envelope = kind === "json-object" && /^\s*\{\s*"(?:links|items|data|queryTemplate|info)"/.test(head.text.replace(/^\uFEFF/, ""));
  const layout = kind === "json-array" ? "array" : envelope ? "envelope" : "values";
  let n = 0;
  for await (const { value, line } of jsonValues(file, layout, ctx.onBytes)) {
    n++;
    const pos = { file, record: n, line, id: isObj(value) && value.id !== undefined ? String(value.id) : undefined };
    if (!isObj(value) || !looksLikeSaos(value)) {
      const reason = `not a SAOS judgment (no courtType/courtCases)${isObj(value) ? `: keys ${Object.keys(value).slice(0, 6).join(", ")}` : ""}`;
      if (n === 1) {
        yield { kind: "file-error", pos, reason: `file of the wrong source: ${reason}` };
        return;
      }
      yield { kind: "rejected", pos, reason };
      continue;
    }
    yield mapSaos(value, file, n, ctx.today, line);
    if (ctx.stop()) return;
  }
}

export function mapSaos(j: Obj, file: string, ordinal: number, today = new Date(), line?: number): ReadItem {
  const id = String(j.id ?? "");
  const pos = { file, record: ordinal, line, id };
  if (!id) return { kind: "rejected", pos, reason: "no id" };
  if (!("source" in j) && typeof j.href === "string" && !("referencedRegulations" in j)) {
    return { kind: "rejected", pos, reason: `search result item: a reduced record whose textContent is a snippet; fetch ${j.href} and import that` };
  }
  const courtType = String(j.courtType);
  const division = isObj(j.division) ? j.division : null;
  const court = division && isObj(division.court) ? division.court : null;
  const warnings: string[] = [];
  const courtName = nonEmpty(court?.name) ?? COURT_TYPE[courtType]?.name ?? null;
  if (!courtName) warnings.push(`court name not in the record (${courtType} division ${division?.id ?? "?"} given by id only)`);
  const courtLevel = courtType === "COMMON" && typeof court?.type === "string" ? (COMMON_LEVEL[court.type] ?? court.type) : (COURT_TYPE[courtType]?.level ?? courtType);

  const date = checkDate(typeof j.judgmentDate === "string" ? j.judgmentDate : null, "judgmentDate", today);
  if ("problem" in date) return { kind: "rejected", pos, reason: date.problem };
  const src = isObj(j.source) ? j.source : {};
  const published = checkDate(typeof src.publicationDate === "string" ? src.publicationDate : null, "source.publicationDate", today);
  if ("problem" in published) return { kind: "rejected", pos, reason: published.problem };

  const caseNumbers = (Array.isArray(j.courtCases) ? j.courtCases : []).map((c) => (isObj(c) ? nonEmpty(c.caseNumber) : null)).filter((c): c is string => !!c);

  const judges: ImportJudge[] = [];
  for (const raw of Array.isArray(j.judges) ? j.judges : []) {
    if (!isObj(raw)) continue;
    const name = nonEmpty(raw.name);
    if (!name) continue;
    const roles = stringList(raw.specialRoles).map((r) => ROLE[r] ?? r.toLowerCase());
    const fn = nonEmpty(raw.function);
    if (fn) roles.unshift(fn);
    judges.push({ name, role: roles.length ? roles.join(", ") : null });
    const problem = judgeNameProblem(name);
    if (problem) warnings.push(problem);
  }

  const content = typeof j.textContent === "string" ? j.textContent : "";
  let fullText: string;
  let fullHtml: string | null = null;
  if (/<\/?[a-z][a-z0-9]*\b[^>]*>/i.test(content)) {
    const s = sanitiseWithText(content.replace(/<span class="anon-block">/g, '<span class="anon">'));
    if ("problem" in s) return { kind: "rejected", pos, reason: s.problem };
    fullHtml = s.html;
    fullText = s.text;
  } else {
    fullText = content.replace(/\r\n?/g, "\n").trim();
  }
  if (!fullText) return { kind: "rejected", pos, reason: "missing text (textContent is empty)" };

  const references: SourceReference[] = [];
  for (const c of Array.isArray(j.referencedCourtCases) ? j.referencedCourtCases : []) {
    if (!isObj(c) || !nonEmpty(c.caseNumber)) continue;
    references.push({
      kind: "judgment",
      text: String(c.caseNumber).trim(),
      case_number: String(c.caseNumber).trim(),
      source_ids: (Array.isArray(c.judgmentIds) ? c.judgmentIds : []).map(String),
      generated: c.generated === true,
      from: "referencedCourtCases",
    });
  }
  for (const r of Array.isArray(j.referencedRegulations) ? j.referencedRegulations : []) {
    if (!isObj(r)) continue;
    const text = nonEmpty(r.text) ?? nonEmpty(r.journalTitle);
    if (!text) continue;
    references.push({
      kind: "legislation",
      text,
      journal: {
        title: nonEmpty(r.journalTitle) ?? undefined,
        year: typeof r.journalYear === "number" ? r.journalYear : undefined,
        number: typeof r.journalNo === "number" ? r.journalNo : undefined,
        entry: typeof r.journalEntry === "number" ? r.journalEntry : undefined,
      },
      from: "referencedRegulations",
    });
  }
  const legalBases = stringList(j.legalBases);
  for (const b of legalBases) references.push({ kind: "legislation", text: b, from: "legalBases" });

  const record: JudgmentRecord = {
    source: "saos",
    source_id: id,
    source_url: httpUrl(`https://www.saos.org.pl/judgments/${encodeURIComponent(id)}`),
    licence: LICENCES.saos,
    jurisdiction: "PL",
    case_number: caseNumbers.length ? caseNumbers.join(", ") : null,
    title: judgmentTitle({ jurisdiction: "PL", kind: typeof j.judgmentType === "string" ? j.judgmentType : null, courtName, date: date.date, caseNumbers }),
    summary: nonEmpty(j.summary) ?? excerpt(fullText),
    court_name: courtName,
    court_level: courtLevel,
    case_type: typeof division?.type === "string" ? (DIVISION_TYPE[division.type] ?? division.type) : null,
    decision_type: typeof j.judgmentType === "string" ? plKindWord(j.judgmentType) : null,
    decision_date: date.date,
    publication_date: published.date,
    judges,
    keywords: stringList(j.keywords),
    cited_legislation: [...new Set([...legalBases, ...references.filter((r) => r.from === "referencedRegulations").map((r) => r.text)])],
    full_text: fullText,
    full_html: fullHtml,
    source_references: references,
    metadata: {
      language: "pl",
      court_type: courtType,
      division: nonEmpty(division?.name) ?? undefined,
      division_id: division?.id ?? undefined,
      court_code: nonEmpty(court?.code) ?? undefined,
      judgment_type: j.judgmentType ?? undefined,
      court_reporters: stringList(j.courtReporters),
      origin: {
        system: nonEmpty(src.code) ?? undefined,
        id: nonEmpty(src.judgmentId) ?? undefined,
        url: httpUrl(src.judgmentUrl) ?? undefined,
        publisher: nonEmpty(src.publisher) ?? undefined,
        reviser: nonEmpty(src.reviser) ?? undefined,
      },
      saos_api_url: httpUrl(j.href) ?? `https://www.saos.org.pl/api/judgments/${encodeURIComponent(id)}`,
    },
  };
  return { kind: "record", record, pos, warnings };
}
