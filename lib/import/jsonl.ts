/**
 * Our own JSONL shape (docs/ingestion.md, "Row shape"), through the same zod schema and column mapping as
 * `npm run ingest`, so the two commands accept exactly the same lines.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { z } from "zod";
import { ingestRowSchema } from "@/lib/import/ingest-row";
import type { ReaderContext } from "./reader";
import { headOf, sniff } from "./stream";
import type { ReadItem } from "./types";
import { wrongSourceHint } from "./reader";

function zodReason(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "row"}: ${i.message}`).join("; ");
}

export async function* readJsonl(file: string, ctx: ReaderContext): AsyncGenerator<ReadItem> {
  const kind = sniff(await headOf(file, 4096));
  if (kind !== "json-object" && kind !== "empty") {
    yield { kind: "file-error", pos: { file, at: "byte 0" }, reason: `not a JSONL file of judgment objects: ${wrongSourceHint(kind)}` };
    return;
  }
  const stream = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  let bytes = 0;
  let record = 0;
  try {
    for await (const text of lines) {
      line++;
      bytes += Buffer.byteLength(text, "utf8") + 1;
      ctx.onBytes(bytes);
      if (text.trim() === "") continue;
      record++;
      const pos = { file, line, record };
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        yield { kind: "rejected", pos, reason: `malformed JSON: ${(e as Error).message}` };
        continue;
      }
      const result = ingestRowSchema.safeParse(parsed);
      if (!result.success) {
        yield { kind: "rejected", pos: { ...pos, id: typeof (parsed as { source_id?: unknown })?.source_id === "string" ? (parsed as { source_id: string }).source_id : undefined }, reason: zodReason(result.error) };
        continue;
      }
      const row = result.data;
      yield { kind: "jsonl-row", row, pos: { ...pos, id: row.source_id ?? row.id } };
      if (ctx.stop()) return;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
