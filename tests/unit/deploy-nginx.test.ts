import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddressOf, stampClientAddress } from "@/lib/api/client-address";
import { precompress } from "@/scripts/precompress-static";
import { siteFor } from "@/scripts/prod-check/nginx-site";

/**
 * deploy/nginx.conf in a real nginx (Debian's nginx-light; the file is skipped where no nginx is installed), in front
 * of a stand-in app that stamps and resolves the client address exactly as server/app/app-server.ts does with
 * TRUSTED_PROXY=1: static files come from disk precompressed and immutable, a missing one reaches the app, and the app
 * keys a request on the address nginx saw, never on the X-Forwarded-For the client sent.
 */
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));

let dir: string;
let app: http.Server;
let nginx: ChildProcess | undefined;
let port = 0;
const chunk = `self.chunk=${JSON.stringify(Array.from({ length: 300 }, (_, i) => `entry ${i}`))};\n`;

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const p = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

function get(pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    // From 127.0.0.2, so the address nginx sees differs from nginx's own (127.0.0.1).
    const req = http.get({ host: "127.0.0.1", port, path: pathname, headers, localAddress: "127.0.0.2" }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on("error", reject);
  });
}

beforeAll(async () => {
  if (!NGINX) return;
  dir = mkdtempSync(path.join(tmpdir(), "deploy-nginx-"));
  const staticDir = path.join(dir, "static");
  mkdirSync(path.join(staticDir, "chunks"), { recursive: true });
  writeFileSync(path.join(staticDir, "chunks", "main-abc123.js"), chunk);
  await precompress(staticDir);
  // nginx's workers run as nobody when started by root: the test folder must be readable to them.
  for (const d of [dir, staticDir, path.join(staticDir, "chunks")]) chmodSync(d, 0o755);

  app = http.createServer((req, res) => {
    stampClientAddress(req);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ path: req.url, forwardedFor: req.headers["x-forwarded-for"], client: clientAddressOf(headers, true) }));
  });
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", r));
  const upstream = `127.0.0.1:${(app.address() as AddressInfo).port}`;
  port = await freePort();

  // Templated as `npm run prod:check` does (only the edit points change; a moved one is refused).
  const server = siteFor(path.join(__dirname, "../../deploy/nginx.conf"), { upstream, staticDir, port });
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  writeFileSync(
    path.join(dir, "nginx.conf"),
    `daemon off;\nworker_processes 1;\npid ${path.join(dir, "nginx.pid")};\nerror_log ${path.join(dir, "error.log")} warn;\nevents {}\n` +
      `http {\ninclude /etc/nginx/mime.types;\naccess_log off;\n${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n")}\n${server}\n}\n`,
  );
  nginx = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: ["ignore", "ignore", "pipe"] });
  // Ready when it answers (a start-up failure ends the process: its message is the error).
  let stderr = "";
  nginx.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; i < 100; i++) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const up = await get("/_next/static/chunks/main-abc123.js").then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not answer: ${stderr}`);
}, 30_000);

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx!.once("exit", r));
    nginx.kill("SIGQUIT");
    await exited;
  }
  await new Promise<void>((r) => (app ? app.close(() => r()) : r()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!NGINX)("deploy/nginx.conf in nginx", () => {
  it("serves a static file's .gz copy to a client that accepts gzip, immutable", async () => {
    const res = await get("/_next/static/chunks/main-abc123.js", { "accept-encoding": "gzip, br" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(res.body).toString()).toBe(chunk);
    expect(res.body.length).toBe(readFileSync(path.join(dir, "static/chunks/main-abc123.js.gz")).length);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-type"]).toContain("javascript");
  });

  it("serves the file itself to a client that does not accept gzip", async () => {
    const res = await get("/_next/static/chunks/main-abc123.js");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toBe(chunk);
  });

  it("hands a static path missing on disk to the app", async () => {
    const res = await get("/_next/static/chunks/not-built-yet.js");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).path).toBe("/_next/static/chunks/not-built-yet.js");
  });

  it("the app keys a request on the address nginx saw, not on a forged X-Forwarded-For", async () => {
    const res = await get("/api/search/documents?q=x", { "x-forwarded-for": "6.6.6.6" });
    const body = JSON.parse(res.body.toString()) as { path: string; forwardedFor: string; client: { address: string; source: string } };
    expect(body.path).toBe("/api/search/documents?q=x");
    expect(body.forwardedFor).toBe("6.6.6.6, 127.0.0.2, 127.0.0.1");
    expect(body.client).toEqual({ address: "127.0.0.2", source: "trusted-proxy" });
  });
});
