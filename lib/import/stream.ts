/**
 * Streaming readers under every importer: JSON values out of a file of any size (one object, an array, a paged
 * envelope's `items[]`, or JSON Lines) without holding the file in memory, and a first-bytes sniff to tell formats
 * apart before parsing (a file of the wrong source is named, not half-read).
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";

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

/** Where the values to read sit in a JSON file. */
export type JsonLayout =
  /** Each top-level value: one object, concatenated objects, JSON Lines. */
  | "values"
  /** The elements of the top-level array. */
  | "array"
  /** A paged envelope: the elements of the top-level object's `items` array, and its `data` value. */
  | "envelope";

const QUOTE_OR_BACKSLASH = /["\\]/g;

/**
 * JSON values out of a file of any size, in file order, each with the line it starts on. A scanner that follows only
 * strings and nesting cuts each value out of the stream and JSON.parse reads it, so memory holds one value and one
 * read chunk, and the cost is close to JSON.parse's (a full streaming tokenizer was 40x slower on SAOS pages).
 * A value that does not parse, or a file that ends inside a value, throws MalformedFileError with the byte position.
 * `onBytes` is told how many bytes were read so far.
 */
export async function* jsonValues(
  file: string,
  layout: JsonLayout,
  onBytes?: (bytes: number) => void,
  chunkSize = 256 * 1024,
): AsyncGenerator<{ value: unknown; line: number }> {
  const stack: number[] = []; // 123 '{' or 91 '['
  const expectKey: boolean[] = [];
  let rootKey: string | null = null;
  let keyBuf: string | null = null; // a key of the root object being read
  let inString = false;
  let escaped = false;
  // The value being cut out: its text so far, the depth it started at, its kind and where it started.
  let valueBuf: string | null = null;
  let valueDepth = 0;
  let valueKind: "container" | "string" | "scalar" = "container";
  let valueLine = 1;
  let valueAt = 0;
  let line = 1;
  let chars = 0;
  let bytes = 0;
  // Everything outside the values, with each value as null: parsed at the end so a broken envelope is named too.
  let skeleton: string | null = layout === "values" ? null : "";
  const SKELETON_MAX = 1_000_000;

  const isTarget = (d: number): boolean => {
    if (layout === "values") return d === 0;
    if (layout === "array") return d === 1 && stack[0] === 91;
    return (d === 2 && stack[0] === 123 && stack[1] === 91 && rootKey === "items") || (d === 1 && stack[0] === 123 && rootKey === "data");
  };
  const parse = (text: string, at: number): unknown => {
    try {
      return JSON.parse(text);
    } catch (e) {
      const rel = /position (\d+)/.exec((e as Error).message);
      const where = rel ? `character ${at + Number(rel[1])}` : `the value starting at character ${at}`;
      throw new MalformedFileError(`malformed JSON at ${where}: ${(e as Error).message}`, where);
    }
  };

  const decoder = new TextDecoder("utf-8");
  const stream = createReadStream(file, { highWaterMark: chunkSize });
  const out: { value: unknown; line: number }[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      const text = decoder.decode(chunk, { stream: true });
      let segStart = 0; // start in `text` of what still has to go to valueBuf / skeleton / keyBuf
      const flushTo = (i: number) => {
        if (valueBuf !== null) valueBuf += text.slice(segStart, i);
        else if (keyBuf !== null) keyBuf += text.slice(segStart, i);
        else if (skeleton !== null) skeleton += text.slice(segStart, i);
        segStart = i;
      };
      let i = 0;
      while (i < text.length) {
        if (inString) {
          if (escaped) {
            escaped = false;
            i++;
            continue;
          }
          QUOTE_OR_BACKSLASH.lastIndex = i;
          const m = QUOTE_OR_BACKSLASH.exec(text);
          if (!m) {
            i = text.length;
            break;
          }
          if (m[0] === "\\") {
            i = m.index + 1;
            escaped = true;
            continue;
          }
          i = m.index + 1;
          inString = false;
          if (keyBuf !== null && valueBuf === null) {
            flushTo(i);
            const key = keyBuf;
            keyBuf = null;
            if (skeleton !== null) skeleton += key;
            rootKey = parse(key, chars + i) as string;
          } else if (valueBuf !== null && valueKind === "string" && stack.length === valueDepth) {
            flushTo(i);
            out.push({ value: parse(valueBuf, valueAt), line: valueLine });
            valueBuf = null;
            if (skeleton !== null) skeleton += "null";
          }
          continue;
        }
        const c = text.charCodeAt(i);
        if (c === 10) {
          line++;
          i++;
          continue;
        }
        if (c === 32 || c === 9 || c === 13) {
          i++;
          continue;
        }
        // A scalar value ends at the first structural character or whitespace after it.
        if (valueBuf !== null && valueKind === "scalar" && (c === 44 || c === 93 || c === 125)) {
          flushTo(i);
          out.push({ value: parse(valueBuf, valueAt), line: valueLine });
          valueBuf = null;
          if (skeleton !== null) skeleton += "null";
        }
        const d = stack.length;
        const top = stack[d - 1];
        const valueStarts = valueBuf === null && c !== 44 && c !== 58 && c !== 93 && c !== 125 && !(top === 123 && expectKey[d - 1]);
        if (valueStarts && isTarget(d)) {
          flushTo(i);
          valueBuf = "";
          valueDepth = d;
          valueAt = chars + i;
          valueLine = line;
          valueKind = c === 123 || c === 91 ? "container" : c === 34 ? "string" : "scalar";
        }
        if (c === 34) {
          inString = true;
          if (valueBuf === null && d === 1 && top === 123 && expectKey[0] && layout === "envelope") {
            flushTo(i);
            keyBuf = "";
          }
        } else if (c === 123 || c === 91) {
          stack.push(c);
          expectKey.push(c === 123);
        } else if (c === 125 || c === 93) {
          stack.pop();
          expectKey.pop();
          if (valueBuf !== null && valueKind === "container" && stack.length === valueDepth) {
            flushTo(i + 1);
            out.push({ value: parse(valueBuf, valueAt), line: valueLine });
            valueBuf = null;
            if (skeleton !== null) skeleton += "null";
          }
        } else if (c === 58) {
          if (top === 123) expectKey[d - 1] = false;
        } else if (c === 44) {
          if (top === 123) expectKey[d - 1] = true;
        }
        i++;
      }
      flushTo(text.length);
      chars += text.length;
      // A huge top-level array's skeleton ("[null,null,…]") is not worth keeping: its values were each checked.
      if (skeleton !== null && skeleton.length > SKELETON_MAX) skeleton = null;
      onBytes?.(bytes);
      while (out.length) yield out.shift() as { value: unknown; line: number };
    }
    if (valueBuf !== null && valueKind === "scalar") {
      out.push({ value: parse(valueBuf, valueAt), line: valueLine });
      valueBuf = null;
    }
    while (out.length) yield out.shift() as { value: unknown; line: number };
    if (inString || stack.length || valueBuf !== null) {
      const at = `end of file (byte ${bytes}), truncated`;
      throw new MalformedFileError(`malformed JSON at ${at}: the file ends inside ${stack.length ? "an unclosed object or array" : "a value"}`, at);
    }
    if (skeleton !== null) {
      try {
        JSON.parse(skeleton);
      } catch (e) {
        throw new MalformedFileError(`malformed JSON outside the records (the page's envelope): ${(e as Error).message}`, "envelope");
      }
    }
  } finally {
    stream.destroy();
  }
}
