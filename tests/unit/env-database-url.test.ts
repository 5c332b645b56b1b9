/**
 * The embedded cluster's DATABASE_URL is derived from POSTGRES_PORT on every start, never saved (server/env-file.ts
 * localDatabaseUrl). Before, the launcher wrote the first start's URL to .env.local and later starts on another port
 * (and the CLIs) used that port's cluster — another checkout's, the credentials being the same fixed ones. A saved URL
 * with the embedded credentials on another port is now refused with the line to delete, by the launcher's resolver
 * and by the CLIs that read it (ingest, alerts:send, the worker), run here as real processes.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { localDatabaseUrl, removeFromEnvFile } from "../../server/env-file";
import { embeddedPostgresUrl } from "../../server/paths";

const dir = mkdtempSync(path.join(tmpdir(), "env-url-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function envFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const OTHER_PORT = 54399;
const savedElsewhere = `DATABASE_URL='${embeddedPostgresUrl(OTHER_PORT)}'\nSUPABASE_URL='http://127.0.0.1:54321'\n`;

describe("the embedded cluster's URL follows POSTGRES_PORT", () => {
  const empty = envFile("empty.env", "LOCAL_STACK='1'\n");

  it("no DATABASE_URL anywhere: the URL is derived from POSTGRES_PORT, afresh for each port", () => {
    expect(localDatabaseUrl({ env: { POSTGRES_PORT: "54322" }, file: empty })).toEqual({ url: embeddedPostgresUrl(54322), embedded: true, source: "derived" });
    expect(localDatabaseUrl({ env: { POSTGRES_PORT: "55000" }, file: empty }).url).toBe(embeddedPostgresUrl(55000));
  });

  it("a saved URL with the embedded credentials on another port is refused, naming the line to delete and the port", () => {
    const file = envFile("saved-elsewhere.env", savedElsewhere);
    expect(() => localDatabaseUrl({ env: { POSTGRES_PORT: "54322" }, file })).toThrow(
      new RegExp(`DATABASE_URL with the embedded cluster's credentials on port ${OTHER_PORT}, but POSTGRES_PORT is 54322.*Delete the DATABASE_URL line`),
    );
  });

  it("a saved URL of this port's cluster (what older launchers wrote) is the embedded one; the launcher removes the line", () => {
    const file = envFile("saved-here.env", `A='1'\nDATABASE_URL='${embeddedPostgresUrl(54322)}'\nB='2'\n`);
    expect(localDatabaseUrl({ env: { POSTGRES_PORT: "54322" }, file })).toEqual({ url: embeddedPostgresUrl(54322), embedded: true, source: "derived" });
    expect(removeFromEnvFile(file, "DATABASE_URL", embeddedPostgresUrl(54322))).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("A='1'\nB='2'\n");
    expect(removeFromEnvFile(file, "DATABASE_URL", embeddedPostgresUrl(54322))).toBe(false);
  });

  it("a saved URL of another server is that server; DATABASE_URL in the environment wins over everything", () => {
    const file = envFile("external.env", "DATABASE_URL='postgres://app:secret@db.example.org:5432/app'\n");
    expect(localDatabaseUrl({ env: { POSTGRES_PORT: "54322" }, file })).toEqual({ url: "postgres://app:secret@db.example.org:5432/app", embedded: false, source: "file" });
    const stale = envFile("stale.env", savedElsewhere);
    const explicit = embeddedPostgresUrl(56000);
    expect(localDatabaseUrl({ env: { POSTGRES_PORT: "54322", DATABASE_URL: explicit }, file: stale })).toEqual({ url: explicit, embedded: false, source: "environment" });
  });
});

describe("the CLIs read DATABASE_URL the same way (fault tests: a stale saved URL)", () => {
  const file = envFile("cli.env", savedElsewhere);
  const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
  const run = (entry: string, args: string[] = []) => {
    const env: NodeJS.ProcessEnv = { ...process.env, STACK_ENV_FILE: file, POSTGRES_PORT: "54322" };
    delete env.DATABASE_URL;
    return spawnSync(process.execPath, [tsx, entry, ...args], { env, encoding: "utf8", timeout: 60_000 });
  };

  it.each([
    ["ingest", "server/cli/ingest.ts", ["package.json"]],
    ["alerts:send", "server/cli/alerts-send.ts", ["--dry-run"]],
    ["the worker", "server/worker/worker.ts", []],
  ])("%s refuses the saved URL of another port's cluster and exits 1", (_name, entry, args) => {
    const r = run(entry, args);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`credentials on port ${OTHER_PORT}, but POSTGRES_PORT is 54322`);
  });
});
