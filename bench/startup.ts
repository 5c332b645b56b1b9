/**
 * bench/startup: how long `npm start` takes until the app answers /api/health/status.
 *
 *   npm run bench:startup -- [--runs 2]                          warm: N starts of this checkout, reusing `.data/` and the build
 *   npm run bench:startup -- --mode first [--runs 3] [--from DIR] [--keep] [--log FILE]
 *       first start: copies the checkout (DIR, default this one: its tracked and untracked files, not `.data/`, `.next/`
 *       or `.env.local`; node_modules hard-linked) to a temporary folder, as a clean clone would be, and starts it there
 *       N times: the first run seeds, indexes and builds, the others are warm restarts of that copy.
 *
 * Each run reports its phases (seconds since the launch: Postgres, seed rows, the seed's indexes + citation graph,
 * the search index, `next build`, the app), read from the launcher's lines as they arrive, and the CPU seconds each
 * part of the stack had used when it was ready (from /proc: the launcher itself (seeding, graph and index run in it),
 * what it waited for (`next build`, initdb), Postgres, the other children), so a figure taken on a loaded machine can
 * be read against its cost. `--log FILE` appends the launcher's lines as they come. Ports come from the environment (PORT, POSTGRES_PORT, GATEWAY_PORT, MAIL_CATCHER_PORT).
 * Prints JSON.
 */
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { repoRoot } from "../server/paths";

const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    mode: { type: "string", default: "warm" },
    from: { type: "string" },
    keep: { type: "boolean", default: false },
    log: { type: "string" },
  },
});
const mode = values.mode === "first" ? "first" : "warm";
const runs = Number(values.runs ?? (mode === "first" ? 3 : 2)) || 2;
const port = Number(process.env.PORT ?? 3000);
const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

interface Line {
  t: number;
  text: string;
}

interface Phase {
  start_s: number;
  end_s: number;
  s: number;
}

/** A clean copy of `from` in a temporary folder: what `git clone` plus `npm install` would give, without the network. */
function cleanCopy(from: string): string {
  const dest = mkdtempSync(path.join(tmpdir(), "startup-bench-"));
  // The embedded cluster runs as the postgres user when we are root: it must reach the copy's .data.
  chmodSync(dest, 0o755);
  const files = execFileSync("git", ["-C", from, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  execFileSync("sh", ["-c", `tar -C "$1" --null -T - -cf - | tar -C "$2" -xf -`, "sh", from, dest], { input: files });
  execFileSync("cp", ["-al", path.join(from, "node_modules"), path.join(dest, "node_modules")]);
  return dest;
}

/** The seconds between the first line matching `from` and the first matching `to` (both since the launch). */
function phase(lines: Line[], from: RegExp | number | null, to: RegExp): Phase | null {
  const start = typeof from === "number" ? from : from ? lines.find((l) => from.test(l.text))?.t : 0;
  const end = lines.find((l) => to.test(l.text))?.t;
  if (start === undefined || end === undefined) return null;
  const r = (ms: number) => Math.round(ms / 100) / 10;
  return { start_s: r(start), end_s: r(end), s: r(end - start) };
}

/** The CPU seconds each part used between two moments of the run (snapshots taken as the launcher's lines arrive). */
function cpuBetween(snaps: Array<{ t: number; cpu: Record<string, number> }>, p: Phase): Record<string, number> {
  const at = (s: number) => snaps.reduce((best, x) => (Math.abs(x.t - s * 1000) < Math.abs(best.t - s * 1000) ? x : best), snaps[0]).cpu;
  const [a, b] = [at(p.start_s), at(p.end_s)];
  const out: Record<string, number> = {};
  for (const k of Object.keys(b)) {
    const d = Math.round(((b[k] ?? 0) - (a[k] ?? 0)) * 10) / 10;
    if (d >= 0.5) out[k] = d;
  }
  return out;
}

/** The launcher's lines, read as phases. Works for the launcher before the overlap too (it printed the same lines). */
function phases(lines: Line[]): Record<string, Phase | null> {
  const seedRows = phase(lines, /the database is empty: seeding/, /seed: \d+ rows written/);
  const seedAll = phase(lines, /the database is empty: seeding/, /seeded \d+ judgments in/);
  return {
    postgres: phase(lines, /starting embedded PostgreSQL/, /starting embedded PostgreSQL 17 and migrating: done/),
    seed: seedRows ?? seedAll,
    // The rest of seedCorpus after the last row: the judgments' indexes rebuilt, ANALYZE and the citation graph.
    graph: seedRows && seedAll ? phase(lines, seedRows.end_s * 1000, /seeded \d+ judgments in/) : null,
    index: seedAll ? phase(lines, seedAll.end_s * 1000, /search index built/) : null,
    build: phase(lines, /building the app \(next build\)/, /building the app \(next build\): done in/),
    app: phase(lines, /starting the worker…/, /\[stack\] ready\./),
  };
}

/** CPU seconds (user + system) of every process of this stack, by part, read from /proc while it runs. */
function cpuByPart(rootPid: number, dir: string): Record<string, number> {
  const procs = new Map<number, { ppid: number; own: number; reaped: number; cmd: string }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ");
      procs.set(Number(name), { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]), cmd });
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 50; hops++) {
      if (p === rootPid) return true;
      p = procs.get(p)?.ppid ?? 0;
    }
    return false;
  };
  const out: Record<string, number> = {};
  const add = (part: string, ticks: number) => (out[part] = (out[part] ?? 0) + ticks / CLK_TCK);
  for (const [pid, p] of procs) {
    if (!inTree(pid) && !p.cmd.includes(dir)) continue;
    const part = /postgres/.test(p.cmd.split(" ")[0]) || p.cmd.startsWith("postgres:")
      ? "postgres"
      : p.cmd.includes("tsx/dist/cli.mjs")
        ? "tsx wrapper"
        : p.cmd.includes("server/launcher/start.ts")
          ? "launcher"
          : p.cmd.includes("gateway-cli")
            ? "gateway"
            : p.cmd.includes("worker/worker.ts")
              ? "worker"
              : p.cmd.includes("app-server-cli")
                ? "app"
                : p.cmd.startsWith("next-build") || p.cmd.includes(path.join(dir, ".next"))
                  ? "next build"
                  : p.cmd.includes("mail-catcher")
                    ? "mail catcher"
                    : "other";
    add(part, p.own);
    // What a process waited for is counted with it; the launcher waits for `next build` (and initdb): "next build".
    add(part === "launcher" ? "next build" : part, p.reaped);
  }
  for (const k of Object.keys(out)) out[k] = Math.round(out[k] * 10) / 10;
  return out;
}

async function once(dir: string) {
  const started = performance.now();
  const load = loadavg()[0];
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  // A first start must find nothing of this shell's stack: its own .env.local, .data and .next.
  if (mode === "first") for (const k of ["DATABASE_URL", "SUPABASE_URL", "STACK_ENV_FILE", "NEXT_DIST_DIR", "SEARCH_DATA_DIR"]) delete env[k];
  const child = spawn(process.execPath, [path.join(dir, "node_modules", "tsx", "dist", "cli.mjs"), "server/launcher/start.ts", "--mode=production"], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Line[] = [];
  const snaps: Array<{ t: number; cpu: Record<string, number> }> = [{ t: 0, cpu: {} }];
  let partial = "";
  const collect = (b: Buffer) => {
    const t = performance.now() - started;
    const parts = (partial + b.toString()).split("\n");
    partial = parts.pop() ?? "";
    for (const text of parts) {
      if (!text.trim()) continue;
      lines.push({ t, text });
      if (text.startsWith("[stack]")) snaps.push({ t, cpu: cpuByPart(child.pid ?? -1, dir) });
      if (values.log) appendFileSync(values.log, `${(t / 1000).toFixed(1)} ${text}\n`);
    }
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const readyMs = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const ready = lines.find((l) => l.text.includes("[stack] ready."));
      if (ready) {
        clearInterval(timer);
        resolve(ready.t);
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`npm start exited early:\n${lines.slice(-20).map((l) => l.text).join("\n")}`));
      }
    }, 50);
  });
  const cpu = cpuByPart(child.pid ?? -1, dir);
  const res = await fetch(`http://127.0.0.1:${port}/api/health/status`);
  if (res.status !== 200) throw new Error(`health answered ${res.status}`);
  const stopStarted = performance.now();
  child.kill("SIGTERM");
  await new Promise((r) => child.on("exit", r));
  return {
    ready_ms: Math.round(readyMs),
    stop_ms: Math.round(performance.now() - stopStarted),
    load_1m: { at_start: Math.round(load * 10) / 10, at_ready: Math.round(loadavg()[0] * 10) / 10 },
    // Each phase with the CPU seconds every part used meanwhile (phases overlap: the build's share is its own part).
    phases: Object.fromEntries(
      Object.entries(phases(lines))
        .filter((e): e is [string, Phase] => e[1] !== null)
        .map(([name, p]) => [name, { ...p, cpu_s: cpuBetween(snaps, p) }]),
    ),
    cpu_s: cpu,
    cpu_total_s: Math.round(Object.values(cpu).reduce((a, b) => a + b, 0) * 10) / 10,
    log_tail: lines.slice(-4).map((l) => l.text),
  };
}

async function main() {
  const source = path.resolve(values.from ?? repoRoot);
  const dir = mode === "first" ? cleanCopy(source) : repoRoot;
  if (mode === "first" && (existsSync(path.join(dir, ".data")) || existsSync(path.join(dir, ".next")))) throw new Error(`${dir} is not clean`);
  const results = [];
  try {
    for (let i = 0; i < runs; i++) results.push(await once(dir));
  } finally {
    if (mode === "first" && !values.keep) rmSync(dir, { recursive: true, force: true });
  }
  const later = results.slice(1).map((r) => r.ready_ms);
  console.log(
    JSON.stringify(
      {
        bench: "startup",
        mode,
        source: mode === "first" ? source : undefined,
        copy: mode === "first" && values.keep ? dir : undefined,
        cores: Number(execFileSync("nproc").toString().trim()),
        runs: results.map(({ log_tail: _tail, ...r }) => r),
        first_ready_ms: results[0].ready_ms,
        repeat_ready_ms_max: later.length ? Math.max(...later) : null,
        target_first_ready_ms: mode === "first" ? 150_000 : undefined,
        target_repeat_ready_ms: 8000,
        last_log: results[results.length - 1].log_tail,
      },
      null,
      2,
    ),
  );
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
