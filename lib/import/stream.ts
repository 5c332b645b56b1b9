/**
 * Streaming readers under every importer: JSON values out of a file of any size (one object, an array, a paged
 * envelope's `items[]`, or JSON Lines) without holding the file in memory, and a first-bytes sniff to tell formats
 * apart before parsing (a file of the wrong source is named, not half-read).
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { JSONParser } from "@streamparser/json";

export type Sniffed = "json-object" | "json-array" | "xml" | "parquet" | "empty" | "unknown";

/** The first bytes of a file (at most `n`), decoded as UTF-8 (a cut multi-byte character at the end is harmless here). */
export async function headOf(file: string, n = 65_536): Promise<{ text: string; bytes: Buffer }> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    const bytes = buf.subarray(0, bytesRead);
    return { text: bytes.toString("utf8"), bytes };
  } finally {
    await fh.close();
  }
}

export function sniff(head: { text: string; bytes: Buffer }): Sniffed {
  if (head.bytes.length >= 4 && head.bytes.subarray(0, 4).toString("latin1") === "PAR1") return "parquet";
  const t = head.text.replace(/^\uFEFF/, "").trimStart();
  if (t === "") return "empty";
  if (t[0] === "{") return "json-object";
  if (t[0] === "[") return "json-array";
  if (t[0] === "<") return "xml";
  return "unknown";
}

/** A file that cannot be read to its end: the message names the position. */
export class MalformedFileError extends Error {
  constructor(
    message: string,
    readonly at: string,
  ) {
    super(message);
  }
}

/**
 * JSON values of `paths` (streamparser JSONPath subset), in file order. `separator: ""` also reads JSON Lines and
 * concatenated objects. Emitted values are dropped from the parser's stack (keepStack: false), so memory holds one
 * value and one read chunk at a time. `onBytes` is told how many bytes were read so far.
 */
export async function* jsonValues(file: string, paths: string[], onBytes?: (bytes: number) => void): AsyncGenerator<unknown> {
  const parser = new JSONParser({ paths, keepStack: false, separator: "" });
  const queue: unknown[] = [];
  parser.onValue = ({ value }) => {
    queue.push(value);
  };
  let failure: Error | null = null;
  parser.onError = (e) => {
    failure = e;
  };
  let bytes = 0;
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parser.write(chunk);
      bytes += chunk.length;
      onBytes?.(bytes);
      while (queue.length) yield queue.shift();
      if (failure) throw malformed(failure, bytes);
    }
    if (!parser.isEnded) parser.end();
    while (queue.length) yield queue.shift();
    if (failure) throw malformed(failure, bytes);
  } catch (e) {
    if (e instanceof MalformedFileError) throw e;
    throw malformed(e as Error, bytes);
  } finally {
    stream.destroy();
  }
}

function malformed(e: Error, bytes: number): MalformedFileError {
  const pos = /absolute position "(\d+)"/.exec(e.message);
  const at = pos ? `byte ${pos[1]}` : /ended in|not all the data was received|Unexpected end/i.test(e.message) ? `end of file (byte ${bytes}), truncated` : `byte ${bytes}`;
  return new MalformedFileError(`malformed JSON at ${at}: ${e.message}`, at);
}
