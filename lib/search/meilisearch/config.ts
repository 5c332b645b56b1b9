/**
 * Connection settings of the Meilisearch adapter. MEILI_HOST, MEILI_API_KEY and MEILI_INDEX come from the one
 * config module (lib/config.ts); the adapter-only knobs (embedder name, task wait) are read here with the same zod
 * discipline until lib/config.ts carries them. The API key is server-side only: it is never logged, never put in a
 * URL, and never sent to a browser (the client sends it as `Authorization: Bearer`).
 */
import { z } from "zod";
import { config } from "@/lib/config";
import { EMBEDDER_NAME } from "../index-settings";

export interface MeiliConfig {
  host: string;
  apiKey?: string;
  /** Live index of judgments; `<index>_chunks` and `<index>_suggestions` sit beside it. */
  index: string;
  /** Name of the `userProvided` embedder on the index (Meilisearch `hybrid.embedder`). */
  embedder: string;
  /** Per-request HTTP timeout (D-31: configurable on every outbound call, default 30,000 ms). */
  timeoutMs: number;
  /** How long to wait for one indexing task (documents batch, settings, swap) before giving up. */
  taskTimeoutMs: number;
  /** Task polling interval. */
  taskPollMs: number;
}

const AdapterEnv = z.object({
  MEILI_EMBEDDER: z.string().trim().min(1).default(EMBEDDER_NAME),
  MEILI_TIMEOUT_MS: z.coerce.number().int().min(1).optional(),
  MEILI_TASK_TIMEOUT_MS: z.coerce.number().int().min(1).default(600_000),
  MEILI_TASK_POLL_MS: z.coerce.number().int().min(1).default(100),
});

/** Index uids allow only alphanumerics, hyphens and underscores (Meilisearch `invalid_index_uid`). */
const INDEX_UID = /^[A-Za-z0-9_-]{1,200}$/;

/** Null when MEILI_HOST is unset (the embedded LanceDB adapter is used instead). */
export function meiliConfigFromEnv(): MeiliConfig | null {
  const c = config();
  if (!c.MEILI_HOST) return null;
  const parsed = AdapterEnv.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(`Invalid Meilisearch configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  if (!INDEX_UID.test(c.MEILI_INDEX)) throw new Error("Invalid Meilisearch configuration: MEILI_INDEX must match [A-Za-z0-9_-]");
  return {
    host: c.MEILI_HOST,
    apiKey: c.MEILI_API_KEY || undefined,
    index: c.MEILI_INDEX,
    embedder: parsed.data.MEILI_EMBEDDER,
    timeoutMs: parsed.data.MEILI_TIMEOUT_MS ?? c.UPSTREAM_TIMEOUT_MS,
    taskTimeoutMs: parsed.data.MEILI_TASK_TIMEOUT_MS,
    taskPollMs: parsed.data.MEILI_TASK_POLL_MS,
  };
}
