import type http from "node:http";

/**
 * A page's scripts run once its HTML has been parsed (P-78, issue 20 item 1).
 *
 * Next writes every client chunk as `<script src="/_next/static/…" async>`. Async scripts run as soon as they arrive,
 * which on a local or fast connection is while the parser is still reading the page: their module evaluation and
 * React's hydration then sit between the parser's slices, and the frame that paints the results comes ~100-200 ms later
 * on a two-core machine (bench/web-trace `dcl-scripts` against `asis`, docs/bench.md).
 *
 * So the app server rewrites each such tag, as the HTML streams out, into
 *   - a `<link rel="preload" as="script">` for the same file, so it is still fetched at once, and
 *   - a call to a small queue that appends the script when the document has been parsed (DOMContentLoaded).
 * The queue is defined by an inline script put before the first rewritten tag. Every inline script carries the page's
 * CSP nonce, and under 'strict-dynamic' the scripts it appends are allowed. Scripts appended before the load event still
 * hold it back, so `load` still means "the page's scripts have run", as before.
 *
 * Anything that does not look exactly like Next's tag (another attribute order, a src outside /_next/static/, a tag
 * without a nonce) is passed through unchanged, so a change in Next's markup costs the gain, never the page.
 */

const TAG = /<script src="(\/_next\/static\/[^"<>]+\.js)"(?: async="")? nonce="([^"<>]+)"(?: async="")?><\/script>/g;
/** The longest tail that may hold the start of a tag split across two writes. */
const MAX_TAG = 512;

/** The queue: a script appended now if the document has been parsed, else when it has. */
export const QUEUE_SCRIPT =
  "(function(){var n=document.currentScript&&document.currentScript.nonce,q=[],done=false;" +
  'function add(s){var e=document.createElement("script");e.src=s;e.async=true;if(n)e.nonce=n;document.head.appendChild(e)}' +
  "function run(){done=true;q.splice(0).forEach(add)}" +
  "self.__scriptAfterParse=function(s){done?add(s):q.push(s)};" +
  'if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",run,{once:true});else run()})()';

/** One tag, rewritten; whether the tag was async decides (a sync script must keep blocking the parser). */
function rewriteTag(tag: string, src: string, nonce: string, withQueue: boolean): string {
  if (!tag.includes(' async=""')) return tag;
  const queue = withQueue ? `<script nonce="${nonce}">${QUEUE_SCRIPT}</script>` : "";
  return `${queue}<link rel="preload" as="script" href="${src}" nonce="${nonce}"/><script nonce="${nonce}">__scriptAfterParse(${JSON.stringify(src)})</script>`;
}

/** A rewriter for one HTML document delivered in pieces: `push` returns what can be written now, `end` the rest. */
export function scriptRewriter(): { push(text: string): string; end(): string } {
  let carry = "";
  let queued = false;
  const rewrite = (text: string) =>
    text.replace(TAG, (tag: string, src: string, nonce: string) => {
      const out = rewriteTag(tag, src, nonce, !queued);
      if (out !== tag) queued = true;
      return out;
    });
  return {
    push(text) {
      const all = carry + text;
      // Hold back a short tail that may start a tag: an unclosed `<…`, or a `<script …>` whose `</script>` has not
      // come yet (the pattern spans both). Everything before it is complete and can be rewritten.
      const unfinished = (from: number, closer: string) => (from >= 0 && all.indexOf(closer, from) < 0 && all.length - from <= MAX_TAG ? from : all.length);
      const start = Math.min(unfinished(all.lastIndexOf("<"), ">"), unfinished(all.lastIndexOf("<script"), "</script>"));
      carry = all.slice(start);
      return rewrite(all.slice(0, start));
    },
    end() {
      const rest = rewrite(carry);
      carry = "";
      return rest;
    },
  };
}

type Write = (chunk: unknown, encoding?: unknown, cb?: unknown) => boolean;
type End = (chunk?: unknown, encoding?: unknown, cb?: unknown) => http.ServerResponse;

function isHtml(res: http.ServerResponse): boolean {
  const type = res.getHeader("content-type");
  return typeof type === "string" && /^text\/html\b/i.test(type) && !res.getHeader("content-encoding");
}

/**
 * Rewrite the HTML written to `res` (see above). Installed on the response before Next writes to it, outside any
 * compression, so it sees the page as text. A response that turns out not to be HTML, or whose headers already went
 * out with a Content-Length, is left alone.
 */
export function rewriteScriptsAfterParse(res: http.ServerResponse): void {
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as End;
  let decided: boolean | null = null;
  const rewriter = scriptRewriter();
  // A multi-byte character split across two writes must not be decoded in halves.
  let pendingBytes = Buffer.alloc(0);
  const decide = (): boolean => {
    if (decided !== null) return decided;
    const headersOut = (res as unknown as { _headerSent?: boolean })._headerSent === true;
    decided = isHtml(res) && !(headersOut && res.getHeader("content-length") !== undefined);
    if (decided && !headersOut) res.removeHeader("content-length");
    return decided;
  };
  const decode = (chunk: unknown, encoding: unknown): string | null => {
    if (typeof chunk === "string") return encoding === undefined || encoding === "utf8" || encoding === "utf-8" ? chunk : null;
    if (!(chunk instanceof Uint8Array)) return null;
    const bytes = pendingBytes.length ? Buffer.concat([pendingBytes, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Keep back an incomplete UTF-8 sequence at the end (at most 3 bytes).
    let keep = 0;
    for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 3); i--) {
      const b = bytes[i];
      if ((b & 0xc0) === 0x80) continue;
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (bytes.length - i < need) keep = bytes.length - i;
      break;
    }
    pendingBytes = keep ? Buffer.from(bytes.subarray(bytes.length - keep)) : Buffer.alloc(0);
    return bytes.subarray(0, bytes.length - keep).toString("utf8");
  };
  res.write = function (chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
    if (!decide()) return write(chunk, encoding, cb);
    const s = decode(chunk, typeof encoding === "function" ? undefined : encoding);
    if (s === null) return write(chunk, encoding, cb);
    const out = rewriter.push(s);
    const callback = typeof encoding === "function" ? encoding : cb;
    // An empty write still has to call back, and keeps the stream's back-pressure answer.
    return write(out, "utf8", callback);
  } as typeof res.write;
  res.end = function (chunk?: unknown, encoding?: unknown, cb?: unknown): http.ServerResponse {
    if (typeof chunk === "function") [chunk, encoding, cb] = [undefined, undefined, chunk];
    if (!decide()) return end(chunk, encoding, cb);
    let s = chunk === undefined || chunk === null ? "" : decode(chunk, typeof encoding === "function" ? undefined : encoding);
    if (s === null) return end(chunk, encoding, cb);
    if (pendingBytes.length) s += pendingBytes.toString("utf8");
    const out = rewriter.push(s) + rewriter.end();
    return end(out, "utf8", typeof encoding === "function" ? encoding : cb);
  } as typeof res.end;
}
