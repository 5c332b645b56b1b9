import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress as brotliCallback, constants, gzip as gzipCallback } from "node:zlib";
import { LRUCache } from "lru-cache";
import { everyAnswerHeaders } from "../../lib/security-headers";
import { COMPRESS_MIN_BYTES, pickCoding } from "./content-coding";

const gzip = promisify(gzipCallback);
const brotli = promisify(brotliCallback);

/**
 * The build's scripts and stylesheets (`/_next/static/**`), compressed once per file and kept in memory (P-75).
 *
 * Next's own handler gzips every static answer again on every request: on this VM that was ~48 ms of the app's CPU per
 * fresh visit to /search (13 scripts and a stylesheet, ~620 KB), spent while the browser, on the same two cores, parses
 * and paints the page. The files under `/_next/static/` are content-hashed and served `immutable`, so one compressed
 * copy per file and encoding is exact. Anything this does not recognise (another path, method or extension, a file it
 * cannot read) goes to Next, which answers it as before.
 */
const PREFIX = "/_next/static/";
/** Hashed build output only holds these; anything else is left to Next. */
const TYPES: Readonly<Record<string, string>> = {
  ".js": "application/javascript; charset=UTF-8",
  ".css": "text/css; charset=UTF-8",
};
/** A path below the prefix: plain segments, no `..`, no encoding (Next normalises those itself). */
const SAFE_PATH = /^(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*\/)*[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;
const IMMUTABLE = "public, max-age=31536000, immutable";
/** The whole static output of a build is a few MB; the bound only guards against a surprise. */
const CACHE_BYTES = 64 * 1024 * 1024;

interface Asset {
  raw: Buffer;
  type: string;
  etag: string;
  gzip: Buffer | null;
  /** Brotli at its best quality takes ~0.3 s for the largest chunk: made in the background, used once ready. */
  br: Buffer | null;
}

export interface StaticAssets {
  /** Answers the request and returns true, or returns false having written nothing (the caller hands it to Next). */
  serve(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
}

export function staticAssets(distDir: string, production: boolean): StaticAssets {
  const root = path.resolve(distDir, "static");
  const security = everyAnswerHeaders(production);
  // Settled files by path; a file being read and compressed is shared by the requests that ask for it meanwhile.
  const ready = new LRUCache<string, Asset>({ maxSize: CACHE_BYTES, sizeCalculation: (a) => a.raw.length * 2 });
  const loading = new Map<string, Promise<Asset | null>>();

  async function load(rel: string, type: string): Promise<Asset | null> {
    let raw: Buffer;
    try {
      raw = await readFile(path.join(root, rel));
    } catch {
      return null; // Not in this build (or not a file): Next answers, with its 404.
    }
    const asset: Asset = { raw, type, etag: `"${createHash("sha1").update(raw).digest("base64url")}"`, gzip: null, br: null };
    if (raw.length >= COMPRESS_MIN_BYTES) {
      // A coding that fails leaves the file to be sent as it is (or in the other coding), never a failed answer.
      asset.gzip = await gzip(raw, { level: 9 }).catch(() => null);
      brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }).then(
        (b) => (asset.br = b),
        () => undefined, // gzip stays in use
      );
    }
    return asset;
  }

  function loadOnce(rel: string, type: string): Promise<Asset | null> {
    let pending = loading.get(rel);
    if (!pending) {
      pending = load(rel, type).then((asset) => {
        loading.delete(rel);
        // An unreadable path is not remembered: the build may be replaced under a running app.
        if (asset) ready.set(rel, asset);
        return asset;
      });
      loading.set(rel, pending);
    }
    return pending;
  }

  return {
    async serve(req, res) {
      if ((req.method !== "GET" && req.method !== "HEAD") || !req.url?.startsWith(PREFIX)) return false;
      const q = req.url.indexOf("?");
      const rel = (q < 0 ? req.url : req.url.slice(0, q)).slice(PREFIX.length);
      const type = TYPES[path.extname(rel)];
      if (!type || !SAFE_PATH.test(rel)) return false;
      const asset = ready.get(rel) ?? (await loadOnce(rel, type));
      if (!asset) return false;

      for (const { key, value } of security) res.setHeader(key, value);
      res.setHeader("Cache-Control", IMMUTABLE);
      res.setHeader("ETag", asset.etag);
      res.setHeader("Vary", "Accept-Encoding");
      if (req.headers["if-none-match"] === asset.etag) {
        res.statusCode = 304;
        res.end();
        return true;
      }
      const coding = pickCoding(req.headers["accept-encoding"], { br: asset.br !== null, gzip: asset.gzip !== null });
      const body = coding === "br" ? asset.br! : coding === "gzip" ? asset.gzip! : asset.raw;
      res.statusCode = 200;
      res.setHeader("Content-Type", asset.type);
      if (coding !== "identity") res.setHeader("Content-Encoding", coding);
      res.setHeader("Content-Length", body.length);
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    },
  };
}
