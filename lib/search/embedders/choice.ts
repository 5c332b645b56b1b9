/**
 * Which embedder the search index uses when an admin switched it (PUT /api/settings/embeddings):
 * a small file next to the index (`<SEARCH_DATA_DIR>/embedder-choice.json`), written only after a re-embed committed
 * its generation, so every process that opens the index (the app, the launcher's sync) embeds with the embedder the
 * vectors were made with. No file: the configured default (EMBEDDING_MODEL, else local-hash).
 */
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";

/** Same place as lib/search/engine.ts searchDataDir() (not imported: that module imports the embedders). */
function choiceFile(): string {
  return path.join(path.resolve(config().SEARCH_DATA_DIR ?? path.join(process.cwd(), ".data", "search")), "embedder-choice.json");
}

let cache: { at: number; mtimeMs: number; id: string | null; file: string } | null = null;

/** The chosen embedder id, or null (no choice recorded). Re-read at most once a second, and only when the file changed. */
export function chosenEmbedderId(): string | null {
  const file = choiceFile();
  const now = Date.now();
  if (cache && cache.file === file && now - cache.at < 1000) return cache.id;
  let mtimeMs = -1;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    cache = { at: now, mtimeMs: -1, id: null, file };
    return null;
  }
  if (cache && cache.file === file && cache.mtimeMs === mtimeMs) {
    cache.at = now;
    return cache.id;
  }
  let id: string | null = null;
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as { id?: unknown };
    id = typeof parsed.id === "string" && parsed.id !== "" ? parsed.id : null;
  } catch {
    id = null; // a torn or hand-edited file: fall back to the configured default
  }
  cache = { at: now, mtimeMs, id, file };
  return id;
}

/** Record the choice (atomically: write aside, rename), after the index holds vectors of that embedder. */
export function recordEmbedderChoice(id: string): void {
  const file = choiceFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ id, chosen_at: new Date().toISOString() }));
  fs.renameSync(tmp, file);
  cache = null;
}
