/**
 * server/app/static-assets.ts (P-75): the build's hashed scripts and stylesheets, compressed once and served from memory
 * by our HTTP server; anything it does not recognise goes on to Next (here: a stand-in that answers "next").
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pickCoding } from "../../server/app/content-coding";
import { staticAssets } from "../../server/app/static-assets";

describe("pickCoding", () => {
  const both = { br: true, gzip: true };
  it("prefers brotli, then gzip, then the file as it is", () => {
    expect(pickCoding("gzip, deflate, br, zstd", both)).toBe("br");
    expect(pickCoding("gzip, deflate", both)).toBe("gzip");
    expect(pickCoding("deflate", both)).toBe("identity");
    expect(pickCoding(undefined, both)).toBe("identity");
    expect(pickCoding("", both)).toBe("identity");
  });
  it("uses only what is at hand", () => {
    expect(pickCoding("br, gzip", { br: false, gzip: true })).toBe("gzip");
    expect(pickCoding("br", { br: false, gzip: true })).toBe("identity");
    expect(pickCoding("br, gzip", { br: false, gzip: false })).toBe("identity");
  });
  it("honours q=0 as a refusal, and * as anything", () => {
    expect(pickCoding("br;q=0, gzip", both)).toBe("gzip");
    expect(pickCoding("br;q=0, gzip;q=0", both)).toBe("identity");
    expect(pickCoding("gzip;q=0.5", both)).toBe("gzip");
    expect(pickCoding("*", both)).toBe("br");
    expect(pickCoding(" GZIP ", both)).toBe("gzip");
    // A coding the header names keeps its own weight; * covers only the others.
    expect(pickCoding("br;q=0, *", both)).toBe("gzip");
    expect(pickCoding("gzip;q=0, *;q=0.1", { br: false, gzip: true })).toBe("identity");
    expect(pickCoding("*;q=0", both)).toBe("identity");
  });
});

describe("staticAssets", () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  // Big enough to be compressed (≥ 1 KB) and to compress well.
  const script = `console.log(${JSON.stringify("ą judgment ".repeat(400))});\n`;
  const small = "a{color:red}\n";

  /**
   * A raw request: the coding on the wire is what the test sees, and the path goes out as written (the test client,
   * tests/helpers/http.ts, resolves it with URL, which would fold the `..` and `%2e%2e` tricks below away).
   */
  function get(p: string, headers: Record<string, string> = {}, method = "GET") {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(`${base}${p}`, { method, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "static-assets-"));
    mkdirSync(path.join(dir, "static", "chunks"), { recursive: true });
    writeFileSync(path.join(dir, "static", "chunks", "a1b2.js"), script);
    writeFileSync(path.join(dir, "static", "chunks", "tiny.css"), small);
    writeFileSync(path.join(dir, "static", "chunks", "notes.txt"), "not an asset type");
    writeFileSync(path.join(dir, "secret.js"), "outside the static folder");
    const assets = staticAssets(dir, true);
    server = http.createServer((req, res) => {
      void assets.serve(req, res).then((served) => {
        if (!served) res.end("next");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves a script gzip-compressed, with the headers of an immutable build file", async () => {
    const res = await get("/_next/static/chunks/a1b2.js", { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(res.body).toString("utf8")).toBe(script);
    expect(res.headers["content-type"]).toBe("application/javascript; charset=UTF-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers.vary).toBe("Accept-Encoding");
    expect(res.headers["content-length"]).toBe(String(res.body.length));
    // The security headers every answer carries (lib/security-headers.ts), production included.
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["strict-transport-security"]).toMatch(/max-age=/);
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
  });

  it("moves to brotli once it is ready, and the bytes decode to the same file", async () => {
    let res = await get("/_next/static/chunks/a1b2.js", { "accept-encoding": "br, gzip" });
    for (let i = 0; i < 100 && res.headers["content-encoding"] !== "br"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      res = await get("/_next/static/chunks/a1b2.js", { "accept-encoding": "br, gzip" });
    }
    expect(res.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(res.body).toString("utf8")).toBe(script);
  });

  it("sends the file as it is to a client that accepts no coding, and small files uncompressed", async () => {
    const plain = await get("/_next/static/chunks/a1b2.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toBe(script);
    const css = await get("/_next/static/chunks/tiny.css", { "accept-encoding": "br, gzip" });
    expect(css.status).toBe(200);
    expect(css.headers["content-encoding"]).toBeUndefined();
    expect(css.headers["content-type"]).toBe("text/css; charset=UTF-8");
    expect(css.body.toString("utf8")).toBe(small);
  });

  it("answers HEAD without a body, a matching If-None-Match with 304, and ignores a query", async () => {
    const head = await get("/_next/static/chunks/a1b2.js", { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
    const etag = String(head.headers.etag);
    const again = await get("/_next/static/chunks/a1b2.js?dpl=x", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const other = await get("/_next/static/chunks/a1b2.js", { "if-none-match": '"other"' });
    expect(other.status).toBe(200);
  });

  it("leaves everything else to Next: other paths, methods, types, missing files and path tricks", async () => {
    for (const p of [
      "/_next/static/chunks/missing.js",
      "/_next/static/chunks/notes.txt",
      "/_next/static/../secret.js",
      "/_next/static/chunks/%2e%2e/%2e%2e/secret.js",
      "/_next/static/chunks//a1b2.js",
      "/_next/static/.hidden.js",
      "/_next/image?url=x",
      "/other/a1b2.js",
    ]) {
      const res = await get(p);
      expect(res.body.toString("utf8"), p).toBe("next");
    }
    const post = await get("/_next/static/chunks/a1b2.js", {}, "POST");
    expect(post.body.toString("utf8")).toBe("next");
  });
});
