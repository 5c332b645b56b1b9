/**
 * server/scripts-after-parse.ts (P-78): Next's async chunk tags are rewritten, as the page streams out, into a preload
 * and a queued append that runs once the document is parsed; everything else in the page is left byte for byte.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import compression from "compression";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { QUEUE_SCRIPT, rewriteScriptsAfterParse, scriptRewriter } from "../../server/scripts-after-parse";

const N = "J+/6YLbhuHIpozJymgis8g==";
const chunk = (name: string) => `<script src="/_next/static/chunks/${name}.js" async="" nonce="${N}"></script>`;
// The shape of a page as Next 16 writes it: chunk tags in the head, the polyfills as noModule, the bootstrap script in
// the body with its attributes in another order, and the inline RSC payload after it.
const PAGE =
  `<!DOCTYPE html><html lang="pl"><head><meta charSet="utf-8"/><link rel="stylesheet" href="/_next/static/chunks/a.css" nonce="${N}" data-precedence="next"/>` +
  chunk("40a64yj6loxv_") +
  chunk("turbopack-077hmtqrhcoji") +
  `<script src="/_next/static/chunks/0cz1d0mv5g_q7.js" noModule="" nonce="${N}"></script></head>` +
  `<body><main><h1>Rozbój — wyroki</h1><p>Sąd Apelacyjny w Łodzi</p></main>` +
  `<script src="/_next/static/chunks/2v4h0efwtcbd5.js" nonce="${N}" async=""></script>` +
  `<script nonce="${N}">(self.__next_f=self.__next_f||[]).push([0])</script>` +
  `<script nonce="${N}">self.__next_f.push([1,"a<b && \\"/_next/static/chunks/x.js\\""])</script></body></html>`;

const queued = (name: string) =>
  `<link rel="preload" as="script" href="/_next/static/chunks/${name}.js" nonce="${N}"/><script nonce="${N}">__scriptAfterParse("/_next/static/chunks/${name}.js")</script>`;

const EXPECTED = PAGE.replace(chunk("40a64yj6loxv_"), `<script nonce="${N}">${QUEUE_SCRIPT}</script>${queued("40a64yj6loxv_")}`)
  .replace(chunk("turbopack-077hmtqrhcoji"), queued("turbopack-077hmtqrhcoji"))
  .replace(`<script src="/_next/static/chunks/2v4h0efwtcbd5.js" nonce="${N}" async=""></script>`, queued("2v4h0efwtcbd5"));

function rewriteInPieces(text: string, cuts: number[]): string {
  const r = scriptRewriter();
  let out = "";
  let from = 0;
  for (const at of [...new Set(cuts)].sort((a, b) => a - b)) {
    out += r.push(text.slice(from, at));
    from = at;
  }
  return out + r.push(text.slice(from)) + r.end();
}

describe("scriptRewriter", () => {
  it("queues every async chunk, defines the queue once before the first, and leaves the rest as it was", () => {
    const out = rewriteInPieces(PAGE, []);
    expect(out).toBe(EXPECTED);
    expect(out.split(QUEUE_SCRIPT)).toHaveLength(2);
    expect(out).toContain(`<script src="/_next/static/chunks/0cz1d0mv5g_q7.js" noModule="" nonce="${N}"></script>`);
    expect(out).not.toMatch(/<script src="[^"]*" async=""/);
  });

  it("gives the same page however the stream is cut", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: PAGE.length }), { maxLength: 12 }), (cuts) => {
        expect(rewriteInPieces(PAGE, cuts)).toBe(EXPECTED);
      }),
      { numRuns: 2000 },
    );
    for (let at = 0; at <= PAGE.length; at++) expect(rewriteInPieces(PAGE, [at])).toBe(EXPECTED);
  });

  it("leaves tags it does not recognise alone: no nonce, another origin, not async, other attributes", () => {
    const others = [
      `<script src="/_next/static/chunks/a.js" async=""></script>`,
      `<script src="https://cdn.example/x.js" async="" nonce="${N}"></script>`,
      `<script src="/_next/static/chunks/a.js" nonce="${N}"></script>`,
      `<script src="/_next/static/chunks/a.js" async="" nonce="${N}" integrity="sha384-x"></script>`,
      `<script type="module" src="/_next/static/chunks/a.js" async="" nonce="${N}"></script>`,
    ].join("");
    expect(rewriteInPieces(others, [])).toBe(others);
  });

  it("passes any text through unchanged when it holds no chunk tag", () => {
    fc.assert(
      // Random text with many "<", ">" and "<script" pieces, none of them a whole chunk tag.
      fc.property(fc.array(fc.constantFrom("<", ">", "<script", "</script>", "a", "ą", " ", '"'), { maxLength: 100 }).map((p) => p.join("")), fc.array(fc.nat(400), { maxLength: 6 }), (text, cuts) => {
        expect(rewriteInPieces(text, cuts.map((c) => c % (text.length + 1)))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("rewriteScriptsAfterParse on a response", () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(answer: (res: http.ServerResponse) => void, withCompression = false) {
    const compress = compression();
    server = http.createServer((req, res) => {
      if (withCompression) compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => {});
      rewriteScriptsAfterParse(res);
      answer(res);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()));
    const { port } = server.address() as AddressInfo;
    return (headers: Record<string, string> = {}) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`http://127.0.0.1:${port}/`, { headers }, (res) => {
            const parts: Buffer[] = [];
            res.on("data", (c: Buffer) => parts.push(c));
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
          })
          .on("error", reject);
      });
  }

  it("rewrites a page written in byte chunks that split characters and tags, and drops its Content-Length", async () => {
    const bytes = Buffer.from(PAGE, "utf8");
    const get = await serve((res) => {
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.setHeader("content-length", String(bytes.length));
      // 7-byte writes cut the Polish letters (two bytes each) and every tag.
      for (let i = 0; i < bytes.length - 7; i += 7) res.write(bytes.subarray(i, i + 7));
      res.end(bytes.subarray(bytes.length - (bytes.length % 7 || 7)));
    });
    const { headers, body } = await get();
    expect(body.toString("utf8")).toBe(EXPECTED);
    expect(headers["content-length"]).toBeUndefined();
  });

  it("rewrites before compression: the gzip answer decodes to the rewritten page", async () => {
    const get = await serve((res) => {
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.write(PAGE.slice(0, 500));
      res.end(PAGE.slice(500));
    }, true);
    const { headers, body } = await get({ "accept-encoding": "gzip" });
    expect(headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(body).toString("utf8")).toBe(EXPECTED);
  });

  it("leaves answers that are not HTML as they are, Content-Length included", async () => {
    const payload = `0:${JSON.stringify(chunk("a"))}\n`;
    const get = await serve((res) => {
      res.setHeader("content-type", "text/x-component");
      res.setHeader("content-length", String(Buffer.byteLength(payload)));
      res.end(payload);
    });
    const { headers, body } = await get();
    expect(body.toString("utf8")).toBe(payload);
    expect(headers["content-length"]).toBe(String(Buffer.byteLength(payload)));
  });
});
