/**
 * Cut a release (docs/releasing.md): `npm run release -- <version> [--date YYYY-MM-DD] [--dry-run]`.
 *
 * From a clean work tree whose CHANGELOG.md has an `## [Unreleased]` section with entries, it
 *  1. sets `version` in package.json (and package-lock.json, when there is one); it may name this release already,
 *  2. turns the Unreleased entries into `## [<version>] - <date>` under a new, empty Unreleased header,
 *  3. records the release's migrations in tests/fixtures/releases/previous-release-migrations.txt (the schema the
 *     upgrade test starts from until the next release),
 *  4. commits those files ("release <version>") and creates the annotated tag `prod-v<version>` (D-32) whose message
 *     is the release's changelog section.
 * It pushes nothing: it prints the push command. `--dry-run` checks everything and prints what it would write.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const TAG_PREFIX = "prod-v";
export const MIGRATIONS_FIXTURE = "tests/fixtures/releases/previous-release-migrations.txt";
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
const UNRELEASED = /^## \[Unreleased\][^\n]*\n/m;

export interface ReleaseOptions {
  /** The repository's top folder. */
  root: string;
  version: string;
  /** The release date (ISO day); today (UTC) by default. */
  date?: string;
  dryRun?: boolean;
  log?: (line: string) => void;
}

export interface ReleasePlan {
  version: string;
  tag: string;
  date: string;
  /** The release's changelog section (header and entries), also the tag's message. */
  notes: string;
  /** Every file written, with its new text. */
  files: Record<string, string>;
}

/** -1, 0 or 1 as a is lower, equal or higher than b (semver precedence; a pre-release is lower than its release). */
export function compareVersions(a: string, b: string): number {
  const pa = SEMVER.exec(a);
  const pb = SEMVER.exec(b);
  if (!pa || !pb) throw new Error(`not a semantic version: ${pa ? b : a}`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return Math.sign(d);
  }
  if (pa[4] === pb[4]) return 0;
  if (!pa[4]) return 1;
  if (!pb[4]) return -1;
  const xa = pa[4].split(".");
  const xb = pb[4].split(".");
  for (let i = 0; i < Math.max(xa.length, xb.length); i++) {
    if (xa[i] === undefined) return -1;
    if (xb[i] === undefined) return 1;
    const na = /^\d+$/.test(xa[i]) ? Number(xa[i]) : null;
    const nb = /^\d+$/.test(xb[i]) ? Number(xb[i]) : null;
    if (na !== null && nb !== null && na !== nb) return Math.sign(na - nb);
    if (na !== null && nb === null) return -1;
    if (na === null && nb !== null) return 1;
    if (xa[i] !== xb[i]) return xa[i] < xb[i] ? -1 : 1;
  }
  return 0;
}

/** The changelog with the Unreleased entries moved under the release's header; throws when there are none. */
export function releaseChangelog(text: string, version: string, date: string): { text: string; notes: string } {
  const header = UNRELEASED.exec(text);
  if (!header) throw new Error("CHANGELOG.md has no '## [Unreleased]' section");
  const start = header.index + header[0].length;
  const next = text.slice(start).search(/^## \[/m);
  const end = next === -1 ? text.length : start + next;
  const entries = text.slice(start, end).trim();
  if (!entries) throw new Error("the Unreleased section of CHANGELOG.md is empty: nothing to release");
  const section = `## [${version}] - ${date}\n\n${entries}\n`;
  const out = `${text.slice(0, header.index)}## [Unreleased]\n\n${section}\n${text.slice(end).replace(/^\n+/, "")}`;
  return { text: out.replace(/\n+$/, "\n"), notes: section.trim() };
}

/** package.json (or package-lock.json) text with its own version changed, the rest of the file untouched. */
export function withVersion(json: string, version: string, lock: boolean): string {
  const parsed = JSON.parse(json) as { version?: string; packages?: Record<string, { version?: string }> };
  parsed.version = version;
  if (lock && parsed.packages?.[""]) parsed.packages[""].version = version;
  const indent = /^\{\n(\s+)"/.exec(json)?.[1] ?? "  ";
  return `${JSON.stringify(parsed, null, indent)}\n`;
}

function git(root: string, args: string[]): string {
  return execFileSync("git", args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] }).toString().trim();
}

/** Check the repository and compute every file the release writes; nothing is written. */
export function planRelease(opts: ReleaseOptions): ReleasePlan {
  const { root, version } = opts;
  if (!SEMVER.test(version)) throw new Error(`"${version}" is not a semantic version (X.Y.Z or X.Y.Z-pre)`);
  const date = opts.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new Error(`"${date}" is not an ISO date`);
  const tag = `${TAG_PREFIX}${version}`;

  const dirty = git(root, ["status", "--porcelain"]);
  if (dirty) throw new Error(`the work tree has uncommitted changes; commit or stash them first:\n${dirty}`);
  if (git(root, ["tag", "--list", tag])) throw new Error(`tag ${tag} exists already`);

  const pkgText = readFileSync(path.join(root, "package.json"), "utf8");
  const current = (JSON.parse(pkgText) as { version?: string }).version ?? "0.0.0";
  // Equal is allowed: package.json may already name the release being cut (the first one did); the tag check above
  // guarantees it has not been released.
  if (compareVersions(version, current) < 0) throw new Error(`${version} is below package.json's version ${current}`);
  const released = git(root, ["tag", "--list", `${TAG_PREFIX}*`]).split("\n").filter(Boolean);
  for (const t of released) {
    const v = t.slice(TAG_PREFIX.length);
    if (SEMVER.test(v) && compareVersions(version, v) <= 0) throw new Error(`${version} is not above the released ${t}`);
  }

  const changelog = releaseChangelog(readFileSync(path.join(root, "CHANGELOG.md"), "utf8"), version, date);
  const files: Record<string, string> = {
    "package.json": withVersion(pkgText, version, false),
    "CHANGELOG.md": changelog.text,
  };
  const lockPath = path.join(root, "package-lock.json");
  if (existsSync(lockPath)) files["package-lock.json"] = withVersion(readFileSync(lockPath, "utf8"), version, true);
  const migrations = readdirSync(path.join(root, "supabase", "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort();
  files[MIGRATIONS_FIXTURE] = [
    "# The migrations of the previous release, one file name a line: the schema the upgrade test starts from",
    "# (tests/db/upgrade-from-previous-release.test.ts). Written by scripts/release.ts when a release is cut.",
    `release: ${tag}`,
    ...migrations,
    "",
  ].join("\n");
  return { version, tag, date, notes: changelog.notes, files };
}

/** Plan, then (unless a dry run) write, commit and tag. */
export function release(opts: ReleaseOptions): ReleasePlan {
  const log = opts.log ?? ((line: string) => console.log(line));
  const plan = planRelease(opts);
  if (opts.dryRun) {
    log(`dry run: would release ${plan.version} (${plan.date}) as the annotated tag ${plan.tag}, writing ${Object.keys(plan.files).join(", ")}`);
    log(plan.notes);
    return plan;
  }
  for (const [file, text] of Object.entries(plan.files)) writeFileSync(path.join(opts.root, file), text);
  git(opts.root, ["add", "--", ...Object.keys(plan.files)]);
  git(opts.root, ["commit", "-q", "-m", `release ${plan.version}`]);
  // verbatim: the default clean-up would drop the notes' "## …" lines as comments.
  git(opts.root, ["tag", "-a", "--cleanup=verbatim", plan.tag, "-m", `${plan.tag}\n\n${plan.notes}`]);
  log(`released ${plan.version}: commit ${git(opts.root, ["rev-parse", "--short", "HEAD"])}, tag ${plan.tag}`);
  log(`publish it with: git push origin HEAD ${plan.tag}`);
  return plan;
}

function main(argv: string[]): void {
  const args = argv.filter((a) => !a.startsWith("--"));
  const flag = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  if (args.length !== 1 || argv.includes("--help")) {
    console.error("usage: npm run release -- <version> [--date=YYYY-MM-DD] [--dry-run] [--root=<repository>]");
    process.exit(2);
  }
  const root = path.resolve(flag("root") ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
  try {
    release({ root, version: args[0], date: flag("date"), dryRun: argv.includes("--dry-run") });
  } catch (e) {
    console.error(`release: ${(e as Error).message}`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
