/**
 * deploy/nginx.conf made runnable by an unprivileged nginx in a folder of its own: the two places an operator edits
 * (APP_DIR, APP_UPSTREAM) and the listen port filled in, wrapped in a main config whose pid, logs and temp paths live in
 * that folder. Nothing else of the site file changes, so what runs is what is deployed. Used by `npm run prod:check`.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Debian's nginx (nginx-light); /usr/bin for other layouts. */
export function nginxBinary(): string | undefined {
  return ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));
}

export interface NginxRun {
  /** The app's address, host:port. */
  upstream: string;
  /** The build's static folder (NEXT_DIST_DIR/static), absolute. */
  staticDir: string;
  /** Loopback port nginx listens on. */
  port: number;
  /** Folder for the pid file, the logs and the temp paths. */
  dir: string;
}

/** The site file with its comment lines dropped (they name the paths to edit) and this run's addresses in. */
export function siteFor(siteFile: string, run: Omit<NginxRun, "dir">): string {
  const site = readFileSync(siteFile, "utf8")
    .split("\n")
    .filter((l) => !l.trim().startsWith("#"))
    .join("\n");
  const edits: [string, string][] = [
    ["server 127.0.0.1:3000;", `server ${run.upstream};`],
    ["/srv/judgment-search/.next/static/", `${run.staticDir.replace(/\/$/, "")}/`],
    ["listen 80;", `listen 127.0.0.1:${run.port};`],
    ["listen [::]:80;", ""],
  ];
  let out = site;
  for (const [from, to] of edits) {
    // A site file whose edit points moved would run half-templated: refuse it.
    if (!out.includes(from)) throw new Error(`${siteFile}: "${from}" is not in the site file; the edit points changed`);
    out = out.replace(from, to);
  }
  if (out.includes("/srv/judgment-search")) throw new Error(`${siteFile}: "/srv/judgment-search" is still in the templated site; the edit points changed`);
  return out;
}

/** The whole nginx.conf of one run (foreground, one worker, everything under run.dir). */
export function nginxConfig(siteFile: string, run: NginxRun): string {
  const temp = (name: string) => `${name}_temp_path ${path.join(run.dir, name)};`;
  return [
    "daemon off;",
    "worker_processes 1;",
    `pid ${path.join(run.dir, "nginx.pid")};`,
    `error_log ${path.join(run.dir, "nginx-error.log")} warn;`,
    "events {}",
    "http {",
    "include /etc/nginx/mime.types;",
    `access_log ${path.join(run.dir, "nginx-access.log")};`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp),
    siteFor(siteFile, run),
    "}",
    "",
  ].join("\n");
}
