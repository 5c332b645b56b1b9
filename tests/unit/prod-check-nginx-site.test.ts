import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nginxConfig, siteFor } from "@/scripts/prod-check/nginx-site";

/** How `npm run prod:check` fills in deploy/nginx.conf: only the edit points change, and a moved edit point is refused. */
const SITE = path.join(__dirname, "../../deploy/nginx.conf");
const dir = mkdtempSync(path.join(tmpdir(), "nginx-site-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("siteFor", () => {
  it("fills in the upstream, the static folder and a loopback listen, and keeps every other directive", () => {
    const site = siteFor(SITE, { upstream: "127.0.0.1:41000", staticDir: "/tmp/build/static", port: 42000 });
    expect(site).toContain("server 127.0.0.1:41000;");
    expect(site).toContain("alias /tmp/build/static/;");
    expect(site).toContain("listen 127.0.0.1:42000;");
    expect(site).not.toMatch(/listen \[::\]:80;|\/srv\/judgment-search|127\.0\.0\.1:3000/);
    for (const directive of ["gzip_static on;", "proxy_buffering off;", "X-Forwarded-For $proxy_add_x_forwarded_for;", "immutable"]) {
      expect(site).toContain(directive);
    }
    expect(site.split("\n").some((l) => l.trim().startsWith("#"))).toBe(false);
  });

  it("refuses a site file whose edit points moved", () => {
    const moved = path.join(dir, "moved.conf");
    writeFileSync(moved, readFileSync(SITE, "utf8").replace("server 127.0.0.1:3000;", "server 127.0.0.1:3000 weight=1;"));
    expect(() => siteFor(moved, { upstream: "127.0.0.1:1", staticDir: "/x", port: 2 })).toThrow(/edit points changed/);
  });
});

describe("nginxConfig", () => {
  it("runs in the foreground with its pid, logs and temp paths in the run's folder", () => {
    const conf = nginxConfig(SITE, { upstream: "127.0.0.1:1", staticDir: "/x", port: 2, dir: "/run/pc" });
    expect(conf).toContain("daemon off;");
    expect(conf).toContain("pid /run/pc/nginx.pid;");
    for (const t of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) expect(conf).toContain(`${t}_temp_path /run/pc/${t};`);
  });
});
