/**
 * POST /api/admin/imports: one file of any importer's source, uploaded by an admin. The request body is streamed to a
 * file under the upload folder (never held in memory) and refused past IMPORT_UPLOAD_MAX_BYTES with nothing kept;
 * then its source is told (when `auto`), the run is queued as the admin (import_runs, RLS) and handed to the worker
 * (./queue.ts), which runs the same importer as `npm run import` and the closing search sync.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { detectSource } from "@/lib/import/detect";
import type { ImportSource } from "@/lib/import/types";
import type { ImportUploadSource } from "@/lib/schema/requests/admin";
import { searchDataDir } from "@/lib/search/engine";
import type { DbClient } from "@/lib/supabase/db-client";
import { enqueueImportUpload } from "./queue";
import { parseImportRun, type ImportRun } from "./runs";

/** The folder uploads wait in: IMPORT_UPLOAD_DIR, else `imports` beside the search index (shared by app and worker). */
export function importUploadDir(): string {
  return path.resolve(config().IMPORT_UPLOAD_DIR ?? path.join(path.dirname(searchDataDir()), "imports"));
}

/** A file name safe on any file system and never read as a glob by the importer's input expansion. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "").slice(-120);
  return cleaned || "upload";
}

const tooLarge = (max: number) => new ApiError("BODY_TOO_LARGE", `The file is larger than the upload limit of ${max} bytes.`);

/**
 * Write the body to `file`, at most `max` bytes. Past it the file is removed; up to `drain` more bytes are read and
 * dropped so the client, still sending, can read its 413 (as lib/api/route.ts readBodyText does), then the rest is
 * abandoned.
 */
export async function streamToFile(body: ReadableStream<Uint8Array> | null, file: string, max: number, drain: number): Promise<number> {
  const out = createWriteStream(file, { flags: "wx" });
  const closed = new Promise<void>((resolve, reject) => {
    out.on("close", resolve);
    out.on("error", reject);
  });
  let total = 0;
  let over = false;
  try {
    if (body) {
      const reader = body.getReader();
      for (;;) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch {
          if (over) throw tooLarge(max);
          throw new ApiError("REQUEST_ABORTED", "The uploaded file could not be read to its end.");
        }
        if (step.done) break;
        total += step.value.byteLength;
        if (total > max) {
          over = true;
          if (total > max + drain) {
            reader.cancel().catch(() => undefined);
            break;
          }
          continue;
        }
        // Back-pressure: wait for the disk when its buffer is full, so a fast client never fills memory.
        if (!out.write(step.value)) await once(out, "drain");
      }
    }
  } finally {
    out.end();
    await closed.catch(() => undefined);
  }
  if (over) throw tooLarge(max);
  return total;
}

/** Read and drop up to `drain` bytes of a body refused by its declared length (so the client can read its 413), then let go. */
async function discard(body: ReadableStream<Uint8Array> | null, drain: number): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  let seen = 0;
  try {
    while (seen <= drain) {
      const step = await reader.read();
      if (step.done) return;
      seen += step.value.byteLength;
    }
  } catch {
    return;
  }
  reader.cancel().catch(() => undefined);
}

export async function receiveImportUpload(
  db: DbClient,
  req: { body: ReadableStream<Uint8Array> | null; contentLength: string | null },
  q: { source: ImportUploadSource; name: string },
): Promise<ImportRun> {
  const c = config();
  const max = c.IMPORT_UPLOAD_MAX_BYTES;
  if (req.contentLength !== null && Number(req.contentLength) > max) {
    await discard(req.body, c.REQUEST_BODY_DRAIN_BYTES);
    throw tooLarge(max);
  }
  const name = safeFileName(q.name);
  const folder = path.join(importUploadDir(), randomUUID());
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, name);
  let queued = false;
  try {
    const bytes = await streamToFile(req.body, file, max, c.REQUEST_BODY_DRAIN_BYTES);
    const source: ImportSource | null = q.source === "auto" ? await detectSource(file) : q.source;
    if (!source) throw new ApiError("IMPORT_SOURCE_UNDETECTED");
    const { data, error } = await db.rpc("queue_import_upload", { p_source: source, p_file_name: q.name, p_bytes: bytes });
    if (error) throw fromDatabaseError(error);
    const run = parseImportRun(data);
    await enqueueImportUpload({ run_id: run.id, file });
    queued = true;
    return run;
  } finally {
    // A refused or failed upload leaves nothing behind; a queued one is removed by the worker once run.
    if (!queued) await rm(folder, { recursive: true, force: true });
  }
}
