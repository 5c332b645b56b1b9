/**
 * Which importer a file belongs to, told from its first bytes (an upload with source `auto`, /admin/imports): parquet
 * is JuDDGES, XML is Find Case Law, JSON by the keys each source's records carry. Null when nothing says: the admin
 * then chooses (a wrong choice is reported by the reader as a file of the wrong source, never guessed further).
 */
import { headOf, sniff } from "./stream";
import type { ImportSource } from "./types";

const SAOS_KEYS = /"(courtCases|textContent|judgmentType|referencedRegulations)"\s*:/;
const JUDDGES_KEYS = /"(judgment_id|docket_number|xml_content|court_type|themePhrases|extracted_legal_bases)"\s*:/;
const JSONL_KEYS = /"(full_text|jurisdiction)"\s*:/;

export function detectSourceOf(head: { text: string; bytes: Buffer }): ImportSource | null {
  const kind = sniff(head);
  if (kind === "parquet") return "juddges";
  if (kind === "xml") return "fcl";
  if (kind !== "json-object" && kind !== "json-array") return null;
  if (SAOS_KEYS.test(head.text)) return "saos";
  if (JUDDGES_KEYS.test(head.text)) return "juddges";
  if (JSONL_KEYS.test(head.text)) return "jsonl";
  return null;
}

export async function detectSource(file: string): Promise<ImportSource | null> {
  return detectSourceOf(await headOf(file));
}
