/** What every source reader is given, and the hint that names a file of the wrong source. */
import type { Sniffed } from "./stream";

export interface ReaderContext {
  /** Told the bytes read so far of the current file. */
  onBytes: (bytes: number) => void;
  /** The reference "today" for impossible-date checks. */
  today: Date;
  /** True once --limit is reached: the reader stops early. */
  stop: () => boolean;
}

export function wrongSourceHint(kind: Sniffed): string {
  switch (kind) {
    case "xml":
      return "it is XML (Find Case Law LegalDocML or Atom: use source fcl)";
    case "parquet":
      return "it is parquet (JuDDGES rows: use source juddges)";
    case "json-object":
    case "json-array":
      return "it is JSON (SAOS: saos; JuDDGES rows: juddges; our JSONL: jsonl)";
    case "empty":
      return "the file is empty";
    default:
      return "its first bytes are not JSON, XML or parquet";
  }
}
