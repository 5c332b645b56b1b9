import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compareVersions, MIGRATIONS_FIXTURE, release, releaseChangelog } from "@/scripts/release";

/**
 * scripts/release.ts (docs/releasing.md) against a temporary git repository: the version bump, the changelog's
 * header, the migration list of the release, one commit and the annotated tag prod-v<version>; the refusals; the
 * dry run writing nothing; and the command line as `npm run release` runs it.
 */
const CHANGELOG = `# Changelog

All notable changes are documented here.

## [Unreleased]

### Added
- Sentence numbers.

## [1.4.0] - 2026-08-25

### Added
- Older things.
`;

let root: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: root }).toString().trim();
const read = (f: string) => readFileSync(path.join(root, f), "utf8");

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "release-test-"));
  git("init", "-q", "-b", "main");
  git("config", "user.email", "release@example.org");
  git("config", "user.name", "Release Test");
  git("config", "commit.gpgsign", "false");
  git("config", "tag.gpgsign", "false");
  writeFileSync(path.join(root, "package.json"), `${JSON.stringify({ name: "x", version: "0.1.0", private: true }, null, 2)}\n`);
  writeFileSync(
    path.join(root, "package-lock.json"),
    `${JSON.stringify({ name: "x", version: "0.1.0", lockfileVersion: 3, packages: { "": { name: "x", version: "0.1.0" } } }, null, 2)}\n`,
  );
  writeFileSync(path.join(root, "CHANGELOG.md"), CHANGELOG);
  mkdirSync(path.join(root, "supabase", "migrations"), { recursive: true });
  mkdirSync(path.join(root, path.dirname(MIGRATIONS_FIXTURE)), { recursive: true });
  for (const m of ["20260101000000_a.sql", "20260102000000_b.sql"]) writeFileSync(path.join(root, "supabase", "migrations", m), "select 1;\n");
  writeFileSync(path.join(root, MIGRATIONS_FIXTURE), "release: none\n");
  git("add", "-A");
  git("commit", "-q", "-m", "start");
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("scripts/release.ts", () => {
  it("releases the version package.json names already when it has no tag yet (the first release)", () => {
    writeFileSync(path.join(root, "package.json"), `${JSON.stringify({ name: "x", version: "1.5.0", private: true }, null, 2)}\n`);
    git("commit", "-qam", "name the first release");
    release({ root, version: "1.5.0", date: "2026-12-07", log: () => undefined });
    expect(git("for-each-ref", "--format=%(objecttype) %(refname:short)", "refs/tags/prod-v*")).toBe("tag prod-v1.5.0");
    expect(JSON.parse(read("package.json")).version).toBe("1.5.0");
  });

  it("bumps the version, dates the changelog, records the migrations, commits and creates the annotated tag", () => {
    const lines: string[] = [];
    const plan = release({ root, version: "1.5.0", date: "2026-12-07", log: (l) => lines.push(l) });
    expect(plan.tag).toBe("prod-v1.5.0");
    expect(JSON.parse(read("package.json"))).toEqual({ name: "x", version: "1.5.0", private: true });
    const lock = JSON.parse(read("package-lock.json"));
    expect([lock.version, lock.packages[""].version]).toEqual(["1.5.0", "1.5.0"]);
    const changelog = read("CHANGELOG.md");
    expect(changelog).toContain("## [Unreleased]\n\n## [1.5.0] - 2026-12-07\n\n### Added\n- Sentence numbers.\n\n## [1.4.0] - 2026-08-25");
    expect(read(MIGRATIONS_FIXTURE).split("\n").filter((l) => l && !l.startsWith("#"))).toEqual([
      "release: prod-v1.5.0",
      "20260101000000_a.sql",
      "20260102000000_b.sql",
    ]);
    // One commit holding the release, a clean tree, and an annotated (not lightweight) tag on it.
    expect(git("log", "--format=%s", "-1")).toBe("release 1.5.0");
    expect(git("status", "--porcelain")).toBe("");
    expect(git("for-each-ref", "--format=%(objecttype) %(refname:short)", "refs/tags/prod-v*")).toBe("tag prod-v1.5.0");
    expect(git("rev-list", "-n", "1", "prod-v1.5.0")).toBe(git("rev-parse", "HEAD"));
    const message = git("tag", "-l", "--format=%(contents)", "prod-v1.5.0");
    expect(message).toContain("## [1.5.0] - 2026-12-07");
    expect(message).toContain("- Sentence numbers.");
    expect(lines.at(-1)).toBe("publish it with: git push origin HEAD prod-v1.5.0");
  });

  it("a dry run checks and reports but writes, commits and tags nothing", () => {
    const head = git("rev-parse", "HEAD");
    const lines: string[] = [];
    const plan = release({ root, version: "1.5.0", date: "2026-12-07", dryRun: true, log: (l) => lines.push(l) });
    expect(Object.keys(plan.files).sort()).toEqual(["CHANGELOG.md", MIGRATIONS_FIXTURE, "package-lock.json", "package.json"].sort());
    expect(lines[0]).toMatch(/^dry run: would release 1\.5\.0 \(2026-12-07\) as the annotated tag prod-v1\.5\.0/);
    expect(read("CHANGELOG.md")).toBe(CHANGELOG);
    expect(git("rev-parse", "HEAD")).toBe(head);
    expect(git("status", "--porcelain")).toBe("");
    expect(git("tag", "--list")).toBe("");
  });

  it("refuses a bad or non-increasing version, a dirty tree, an existing tag and an empty Unreleased section", () => {
    const quiet = { root, date: "2026-12-07", log: () => undefined };
    expect(() => release({ ...quiet, version: "v1.5" })).toThrow(/not a semantic version/);
    expect(() => release({ ...quiet, version: "0.0.9" })).toThrow(/0.0.9 is below package.json's version 0.1.0/);
    expect(() => release({ ...quiet, version: "1.5.0", date: "7 Dec" })).toThrow(/not an ISO date/);
    writeFileSync(path.join(root, "stray.txt"), "x");
    expect(() => release({ ...quiet, version: "1.5.0" })).toThrow(/uncommitted changes/);
    rmSync(path.join(root, "stray.txt"));
    release({ ...quiet, version: "1.5.0" });
    // The Unreleased section is empty again after a release.
    expect(() => release({ ...quiet, version: "1.6.0" })).toThrow(/Unreleased section of CHANGELOG.md is empty/);
    git("tag", "-a", "prod-v1.6.0", "-m", "made elsewhere");
    expect(() => release({ ...quiet, version: "1.6.0" })).toThrow(/tag prod-v1.6.0 exists already/);
    writeFileSync(path.join(root, "CHANGELOG.md"), read("CHANGELOG.md").replace("## [Unreleased]\n", "## [Unreleased]\n\n- More.\n"));
    git("commit", "-qam", "more");
    expect(() => release({ ...quiet, version: "1.5.5" })).toThrow(/not above the released prod-v1.6.0/);
    expect(() => release({ ...quiet, version: "1.5.0" })).toThrow(/tag prod-v1.5.0 exists already/);
  });

  it("runs from the command line (npm run release -- <version> --dry-run)", () => {
    const script = path.resolve(__dirname, "../../scripts/release.ts");
    const tsx = path.resolve(__dirname, "../../node_modules/.bin/tsx");
    const out = execFileSync(tsx, [script, "2.0.0", "--dry-run", "--date=2026-12-07", `--root=${root}`]).toString();
    expect(out).toContain("dry run: would release 2.0.0 (2026-12-07) as the annotated tag prod-v2.0.0");
    expect(git("tag", "--list")).toBe("");
    let failed: { status: number; stderr: string } | undefined;
    try {
      execFileSync(tsx, [script, "not-a-version", `--root=${root}`], { stdio: "pipe" });
    } catch (e) {
      failed = { status: (e as { status: number }).status, stderr: String((e as { stderr: Buffer }).stderr) };
    }
    expect(failed?.status).toBe(1);
    expect(failed?.stderr).toContain('release: "not-a-version" is not a semantic version');
  });
});

describe("version order and the changelog section", () => {
  it("orders semantic versions with pre-releases below their release", () => {
    expect(compareVersions("1.5.0", "1.4.9")).toBe(1);
    expect(compareVersions("1.10.0", "1.9.0")).toBe(1);
    expect(compareVersions("1.5.0-rc.1", "1.5.0")).toBe(-1);
    expect(compareVersions("1.5.0-rc.2", "1.5.0-rc.10")).toBe(-1);
    expect(compareVersions("2.0.0", "2.0.0")).toBe(0);
  });

  it("keeps everything around the released section", () => {
    const { text, notes } = releaseChangelog(CHANGELOG, "1.5.0", "2026-12-07");
    expect(text.startsWith("# Changelog\n\nAll notable changes are documented here.\n\n## [Unreleased]\n\n## [1.5.0]")).toBe(true);
    expect(text.endsWith("## [1.4.0] - 2026-08-25\n\n### Added\n- Older things.\n")).toBe(true);
    expect(notes).toBe("## [1.5.0] - 2026-12-07\n\n### Added\n- Sentence numbers.");
    expect(() => releaseChangelog("# Changelog\n", "1.0.0", "2026-12-07")).toThrow(/no '## \[Unreleased\]' section/);
  });
});
