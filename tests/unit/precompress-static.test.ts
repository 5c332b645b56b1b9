import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { precompress } from "@/scripts/precompress-static";

/**
 * scripts/precompress-static.ts (docs/deploy.md): the .gz and .br copies a proxy serves with gzip_static decode to
 * exactly their file, keep its mtime, are made only for compressible files worth compressing, and a second run
 * writes nothing.
 */
let dir: string;
const js = `self.__chunk=${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, label: `item ${i}` })))};\n`;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "precompress-"));
  mkdirSync(path.join(dir, "chunks", "app"), { recursive: true });
  writeFileSync(path.join(dir, "chunks", "app", "page-0123abcd.js"), js);
  writeFileSync(path.join(dir, "css-1.css"), `.a{color:red}\n`.repeat(200));
  writeFileSync(path.join(dir, "tiny.js"), "x=1\n");
  writeFileSync(path.join(dir, "logo.png"), Buffer.alloc(4096, 7));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("precompress()", () => {
  it("writes .gz and .br copies that decode to the file, with the file's mtime", async () => {
    const r = await precompress(dir);
    expect(r).toMatchObject({ files: 2, written: 4, skipped: 0 });
    for (const rel of ["chunks/app/page-0123abcd.js", "css-1.css"]) {
      const file = path.join(dir, rel);
      const raw = readFileSync(file);
      expect(gunzipSync(readFileSync(`${file}.gz`)).equals(raw), rel).toBe(true);
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(raw), rel).toBe(true);
      expect(statSync(`${file}.gz`).size).toBeLessThan(raw.length);
      // Same mtime up to the sub-millisecond precision lost in setting it.
      expect(Math.abs(statSync(`${file}.gz`).mtimeMs - statSync(file).mtimeMs)).toBeLessThan(1);
    }
    expect(r.bytesBrotli).toBeLessThan(r.bytesIn);
  });

  it("leaves small files and already-compressed formats alone", async () => {
    await precompress(dir);
    for (const f of ["tiny.js", "logo.png"]) {
      expect(existsSync(path.join(dir, `${f}.gz`)), f).toBe(false);
      expect(existsSync(path.join(dir, `${f}.br`)), f).toBe(false);
    }
  });

  it("a second run writes nothing; a rebuilt file is compressed again", async () => {
    await precompress(dir);
    expect(await precompress(dir)).toMatchObject({ files: 2, written: 0, skipped: 4 });
    const file = path.join(dir, "css-1.css");
    writeFileSync(file, `.b{color:blue}\n`.repeat(300));
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    expect(await precompress(dir)).toMatchObject({ written: 2, skipped: 2 });
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(`.b{color:blue}\n`.repeat(300));
  });
});
