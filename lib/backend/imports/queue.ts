/**
 * The upload queue on pg-boss (P-80: every background job runs in the worker): one message per uploaded file,
 * `{run_id, file}`. The app sends it once the file is stored and the run queued (./upload.ts); the worker runs it
 * (./worker.ts).
 */
import type PgBoss from "pg-boss";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { openBoss } from "../extraction-jobs/queue";

export const IMPORT_UPLOAD_QUEUE = "import-upload";
export interface ImportUploadMessage {
  run_id: string;
  /** The stored upload: `<upload folder>/<uuid>/<file name>`. */
  file: string;
}

/**
 * A run is idempotent (upserts keyed by source and id), so a retry after a killed worker finishes it; an hour covers
 * the largest upload the cap allows at the importer's slowest measured pace.
 */
export const IMPORT_UPLOAD_SEND_OPTIONS: PgBoss.SendOptions = { retryLimit: 2, retryDelay: 30, expireInSeconds: 3600 };

let sender: Promise<PgBoss> | null = null;

export async function enqueueImportUpload(message: ImportUploadMessage): Promise<void> {
  const url = config().DATABASE_URL;
  if (!url) throw new ApiError("DATABASE_UNAVAILABLE", "DATABASE_URL is not set: the import queue lives in the database.");
  sender ??= openBoss(url, { queue: IMPORT_UPLOAD_QUEUE }).catch((e: unknown) => {
    sender = null;
    throw e;
  });
  const boss = await sender;
  await boss.send(IMPORT_UPLOAD_QUEUE, message satisfies ImportUploadMessage, IMPORT_UPLOAD_SEND_OPTIONS);
}
