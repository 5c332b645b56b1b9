/**
 * Shapes shared by the importers (docs/ingestion.md): the judgment record every source maps to, the structured
 * references kept for the citator, and the run summary printed as one JSON line.
 */

import type { IngestRow } from "@/lib/import/ingest-row";

export const IMPORT_SOURCES = ["saos", "fcl", "juddges", "jsonl"] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface ImportJudge {
  name: string;
  role: string | null;
}

/**
 * A reference the source carries in structured form. `kind` judgment: another judgment, by case number (PL),
 * neutral citation / law-report citation (UK), URI and/or the source's own ids. `kind` legislation: an act or a
 * provision, by journal address (Dz. U. year/number/entry), ISAP id or legislation.gov.uk URI.
 */
export interface SourceReference {
  kind: "judgment" | "legislation";
  /** The reference as the source prints it. */
  text: string;
  case_number?: string;
  citation?: string;
  uri?: string;
  /** Ids of the referenced judgment in the same source (SAOS judgment ids). */
  source_ids?: string[];
  /** SAOS: found by the source's own enrichment rather than entered by the court. */
  generated?: boolean;
  journal?: { title?: string; year?: number; number?: number; entry?: number };
  isap_id?: string;
  provisions?: string;
  /** Where the reference came from: the source field name (referencedCourtCases, xLexLink, ref, …). */
  from: string;
}

/** One judgment as an importer maps it, ready to upsert (column names of public.judgments). */
export interface JudgmentRecord {
  source: Exclude<ImportSource, "jsonl">;
  source_id: string;
  source_url: string | null;
  licence: string;
  jurisdiction: "PL" | "UK";
  case_number: string | null;
  title: string;
  /** The source's summary or excerpt, else the opening of the text. */
  summary: string;
  court_name: string | null;
  court_level: string | null;
  case_type: string | null;
  decision_type: string | null;
  decision_date: string | null;
  publication_date: string | null;
  judges: ImportJudge[];
  keywords: string[];
  cited_legislation: string[];
  full_text: string;
  full_html: string | null;
  source_references: SourceReference[];
  metadata: Record<string, unknown>;
}

/** Where a record or a problem sits: the file, the record's ordinal in it (1-based) and its upstream id if known. */
export interface Position {
  file: string;
  record?: number;
  line?: number;
  id?: string;
  /** Byte or character offset, or line:column, for a malformed file. */
  at?: string;
}

export interface Problem extends Position {
  reason: string;
}

/** What a reader yields: a mapped record, a rejected record, a warning about an imported record, or a feed entry. */
export type ReadItem =
  | { kind: "record"; record: JudgmentRecord; pos: Position; warnings: string[] }
  | { kind: "jsonl-row"; row: IngestRow; pos: Position }
  | { kind: "rejected"; pos: Position; reason: string }
  | { kind: "file-error"; pos: Position; reason: string }
  | { kind: "feed-entry"; entry: FeedEntry; pos: Position };

/** A Find Case Law Atom entry: the document it names, for the operator's own fetch (never imported as a judgment). */
export interface FeedEntry {
  uri: string | null;
  xml_url: string | null;
  html_url: string | null;
  title: string | null;
  citation: string | null;
  court: string | null;
  published: string | null;
  updated: string | null;
  content_hash: string | null;
}

export interface ImportSummary {
  source: ImportSource;
  files: number;
  read: number;
  /** Records that passed mapping and checks (all that a dry run would write). */
  valid: number;
  inserted: number;
  updated: number;
  skipped: number;
  rejected: number;
  rejections: Problem[];
  /** Set when more rejections or warnings happened than the summary lists. */
  truncated?: { rejections: number; warnings: number };
  warnings: Problem[];
  feed_entries?: FeedEntry[];
  dry_run: boolean;
  limit: number | null;
  licence: string;
  notice?: string;
  ms: number;
  /** The citation graph written with the judgments (with each batch, lib/import/upsert.ts; `jsonl`: refreshCitations at the end). */
  citations?: { judgments: number; references: number; resolved: number };
  sync?: { kind: string; documents: number; ms: number } | { error: string } | "skipped";
}

/** The reader's view of progress: bytes of all inputs read so far. */
export interface ReadProgress {
  bytes: number;
}
