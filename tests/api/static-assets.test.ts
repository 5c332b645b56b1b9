/**
 * The build's scripts and stylesheets as the shared test app serves them (server/app/static-assets.ts, P-75): every file a
 * page links decodes to the same bytes under brotli, gzip and no coding, with the headers of an immutable build file.
 * In a development app Next serves them itself; there is nothing of ours to check then.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Browser } from "../helpers/http";
import { stackEnv } from "../helpers/stack";

const production = () => stackEnv().appMode === "production";

/** A GET through the test client (it hands the body over as sent, not decoded), its headers as a plain object. */
async function rawGet(file: string, headers: Record<string, string>) {
  const res = await new Browser().get(file, headers);
  return { status: res.status, headers: Object.fromEntries(res.headers) as Record<string, string | undefined>, body: Buffer.from(await res.arrayBuffer()) };
}

function decoded(res: { headers: Record<string, string | undefined>; body: Buffer }): Buffer {
  const coding = res.headers["content-encoding"];
  return coding === "br" ? brotliDecompressSync(res.body) : coding === "gzip" ? gunzipSync(res.body) : res.body;
}

describe.runIf(production())("static build files", () => {
  it("every script and stylesheet of a page is the same file under every coding, served immutable", async () => {
    const base = stackEnv().appUrl as string;
    const html = await (await fetch(new URL("/search", base))).text();
    const files = [...html.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(files.length).toBeGreaterThan(3);
    for (const file of new Set(files)) {
      const plain = await rawGet(file, {});
      expect(plain.status, file).toBe(200);
      expect(plain.headers["content-encoding"], file).toBeUndefined();
      expect(plain.headers["cache-control"], file).toBe("public, max-age=31536000, immutable");
      expect(plain.headers["x-content-type-options"], file).toBe("nosniff");
      expect(plain.headers["content-type"], file).toMatch(file.endsWith(".js") ? /^application\/javascript/ : /^text\/css/);
      for (const coding of ["gzip", "br"]) {
        const res = await rawGet(file, { "accept-encoding": coding });
        expect(res.status, `${file} ${coding}`).toBe(200);
        // Brotli is made in the background after the first request; until then gzip (or the file, below 1 KB) answers.
        expect([undefined, "gzip", coding], `${file} ${coding}`).toContain(res.headers["content-encoding"]);
        expect(decoded(res).equals(plain.body), `${file} ${coding}`).toBe(true);
      }
    }
  });

  it("a file that is not in the build is Next's 404", async () => {
    const res = await fetch(new URL("/_next/static/chunks/not-in-this-build.js", stackEnv().appUrl as string));
    expect(res.status).toBe(404);
  });
});
