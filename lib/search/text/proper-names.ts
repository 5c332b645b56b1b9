/**
 * Proper names of a corpus, one rule for both engines: folded words that the documents' fields only ever spell
 * capitalised ("Robert", "ROBERTS", "Kowalski"), never in lower case. Read from every field but the id, the source
 * URL and full_text (the embedded engine does not hold full_text in memory; the Meilisearch adapter reads the same
 * fields so the two lists agree). Used to give names no typo expansion (docs/search.md "Typos and names").
 */
import { foldWord, newWordRuns, scanWords } from "./tokenize";

const SKIPPED = new Set(["id", "source_url", "full_text"]);

function visit(v: unknown, f: (s: string) => void): void {
  if (typeof v === "string") f(v);
  else if (Array.isArray(v)) for (const x of v) visit(x, f);
  else if (v !== null && typeof v === "object") for (const x of Object.values(v)) visit(x, f);
}

export class ProperNameCollector {
  private readonly capital = new Set<string>();
  private readonly lower = new Set<string>();
  private readonly runs = newWordRuns(256);

  private scan = (text: string): void => {
    const n = scanWords(text, this.runs);
    for (let i = 0; i < n; i++) {
      const s = this.runs.start[i];
      const c = text[s];
      // Digits and caseless scripts say nothing either way.
      if (c.toLowerCase() === c.toUpperCase()) continue;
      const w = foldWord(text, s, this.runs.end[i], this.runs.ascii[i] === 1);
      if (c === c.toLowerCase()) this.lower.add(w);
      else this.capital.add(w);
    }
  };

  /** Reads one document's fields. */
  add(doc: Readonly<Record<string, unknown>>): void {
    for (const [k, v] of Object.entries(doc)) {
      if (!SKIPPED.has(k)) visit(v, this.scan);
    }
  }

  /** The names so far: capitalised in every field read, never lower case. */
  names(): Set<string> {
    const out = new Set<string>();
    for (const w of this.capital) if (!this.lower.has(w)) out.add(w);
    return out;
  }
}
