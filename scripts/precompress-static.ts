/**
 * Write `<file>.gz` and `<file>.br` next to each compressible file of a Next build's static output, for a reverse
 * proxy that serves precompressed files (nginx `gzip_static on` / `brotli_static on`, Caddy `precompressed`):
 *
 *   npm run build && npm run precompress            # .next/static (NEXT_DIST_DIR/static)
 *   tsx scripts/precompress-static.ts <dir>
 *
 * The files under `/_next/static/` are content-hashed and immutable, so compressing each once at build time at the
 * best level costs nothing per request (docs/deploy.md). A copy is written only when it is smaller than the file, and
 * is skipped when it is already newer than its file (a second run does nothing). Each copy gets its file's mtime, so
 * the proxy's Last-Modified and ETag are the same whichever encoding it sends.
 */
import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { COMPRESS_MIN_BYTES } from "../server/app/content-coding";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Text formats the build emits; images and fonts (woff2) are compressed already. */
export const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".json", ".map", ".svg", ".txt", ".html", ".xml", ".wasm"]);

export interface PrecompressResult {
  files: number;
  written: number;
  skipped: number;
  bytesIn: number;
  bytesGzip: number;
  bytesBrotli: number;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

async function fresh(copy: string, mtimeMs: number): Promise<boolean> {
  try {
    // The copy's mtime was set from the file's, which loses precision below the millisecond on the way: allow 1 ms.
    return (await stat(copy)).mtimeMs >= mtimeMs - 1;
  } catch {
    return false;
  }
}

export async function precompress(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, written: 0, skipped: 0, bytesIn: 0, bytesGzip: 0, bytesBrotli: 0 };
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE.has(path.extname(file))) continue;
    const info = await stat(file);
    if (info.size < COMPRESS_MIN_BYTES) continue;
    result.files++;
    result.bytesIn += info.size;
    const raw = await readFile(file);
    const encoders = [
      { ext: ".gz", make: () => gzipAsync(raw, { level: 9 }), add: (n: number) => (result.bytesGzip += n) },
      {
        ext: ".br",
        make: () =>
          brotliAsync(raw, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
          }),
        add: (n: number) => (result.bytesBrotli += n),
      },
    ];
    for (const { ext, make, add } of encoders) {
      const copy = file + ext;
      if (await fresh(copy, info.mtimeMs)) {
        result.skipped++;
        add((await stat(copy)).size);
        continue;
      }
      const packed = await make();
      if (packed.length >= raw.length) continue;
      await writeFile(copy, packed);
      await utimes(copy, info.atimeMs / 1000, info.mtimeMs / 1000);
      result.written++;
      add(packed.length);
    }
  }
  return result;
}

async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? path.join(process.env.NEXT_DIST_DIR ?? ".next", "static"));
  const r = await precompress(dir);
  const kb = (n: number) => `${Math.round(n / 1024)} KB`;
  console.log(
    `precompressed ${r.files} files in ${dir}: ${r.written} copies written, ${r.skipped} up to date; ${kb(r.bytesIn)} → gzip ${kb(r.bytesGzip)}, brotli ${kb(r.bytesBrotli)}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(`precompress: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
