/**
 * A small element tree built with saxes (a streaming, well-formedness-checking XML parser with no entity expansion
 * beyond XML's own five, so no external entities are ever read). Files are fed chunk by chunk; a well-formedness
 * error (a control character, a cut file) throws MalformedFileError naming line and column.
 */
import { createReadStream } from "node:fs";
import { SaxesParser } from "saxes";
import { MalformedFileError } from "./stream";

export interface XmlElement {
  /** Local name (no prefix). */
  name: string;
  /** Attributes by qualified name as written (`uk:type`, `href`). */
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** Element names whose whole subtree is dropped while parsing (styles and similar presentation). */
export interface TreeOptions {
  skip?: ReadonlySet<string>;
}

function builder(opts: TreeOptions) {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const root: XmlElement = { name: "#document", attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let skipping = 0;
  let error: Error | null = null;
  parser.on("error", (e) => {
    error ??= e;
  });
  parser.on("opentag", (tag) => {
    const local = tag.name.includes(":") ? tag.name.slice(tag.name.indexOf(":") + 1) : tag.name;
    if (skipping || opts.skip?.has(local)) {
      skipping++;
      return;
    }
    // saxes gives each tag a fresh attribute object (without xmlns, values are strings): kept as it is, not copied.
    const el: XmlElement = { name: local, attrs: tag.attributes as Record<string, string>, children: [] };
    stack[stack.length - 1].children.push(el);
    stack.push(el);
  });
  parser.on("closetag", () => {
    if (skipping) {
      skipping--;
      return;
    }
    stack.pop();
  });
  const onText = (t: string) => {
    if (!skipping && stack.length > 1) stack[stack.length - 1].children.push(t);
  };
  parser.on("text", onText);
  parser.on("cdata", onText);
  const fail = (where: string): never => {
    const e = error as Error;
    const at = `line ${parser.line}, column ${parser.column}`;
    throw new MalformedFileError(`malformed XML at ${at}${where}: ${e.message.replace(/^[^:]*:\d+:\d+: /, "")}`, at);
  };
  return {
    write(chunk: string) {
      if (error) return;
      try {
        parser.write(chunk);
      } catch (e) {
        error ??= e as Error;
      }
      if (error) fail("");
    },
    close(): XmlElement {
      if (!error) {
        try {
          parser.close();
        } catch (e) {
          error ??= e as Error;
        }
      }
      if (error) fail("");
      if (stack.length > 1) {
        error = new Error("unclosed elements at end of file (truncated)");
        fail("");
      }
      return root;
    },
  };
}

/** The element tree of an XML file, read as a stream. */
export async function xmlFileTree(file: string, opts: TreeOptions = {}, onBytes?: (bytes: number) => void): Promise<XmlElement> {
  const b = builder(opts);
  let bytes = 0;
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  try {
    const decoder = new TextDecoder("utf-8");
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      b.write(decoder.decode(chunk, { stream: true }));
      onBytes?.(bytes);
    }
    b.write(decoder.decode());
  } finally {
    stream.destroy();
  }
  return b.close();
}

/** The element tree of an XML string (JuDDGES xml_content). */
export function xmlStringTree(xml: string, opts: TreeOptions = {}): XmlElement {
  const b = builder(opts);
  b.write(xml);
  return b.close();
}

export const isEl = (n: XmlNode | undefined): n is XmlElement => typeof n === "object" && n !== null;

/** First descendant (depth-first) with a local name, optionally matching a predicate. */
export function find(el: XmlElement, name: string, pred?: (e: XmlElement) => boolean): XmlElement | null {
  for (const c of el.children) {
    if (!isEl(c)) continue;
    if (c.name === name && (!pred || pred(c))) return c;
    const hit = find(c, name, pred);
    if (hit) return hit;
  }
  return null;
}

export function findAll(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (!isEl(c)) continue;
    if (c.name === name) out.push(c);
    findAll(c, name, out);
  }
  return out;
}

export function child(el: XmlElement | null, name: string): XmlElement | null {
  if (!el) return null;
  for (const c of el.children) if (isEl(c) && c.name === name) return c;
  return null;
}

export function children(el: XmlElement | null, name: string): XmlElement[] {
  return el ? el.children.filter((c): c is XmlElement => isEl(c) && c.name === name) : [];
}

/** Whether an element holds any text that is not whitespace (what `textOf(el) !== ""` says, without building it). */
export function hasText(el: XmlElement): boolean {
  for (const c of el.children) {
    if (typeof c === "string" ? /\S/.test(c) : hasText(c)) return true;
  }
  return false;
}

/** Text content, whitespace collapsed. */
export function textOf(el: XmlElement | null): string {
  if (!el) return "";
  const parts: string[] = [];
  const walk = (e: XmlElement) => {
    for (const c of e.children) {
      if (typeof c === "string") parts.push(c);
      else walk(c);
    }
  };
  walk(el);
  return parts.join("").replace(/\s+/g, " ").trim();
}
