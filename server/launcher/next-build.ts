import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { stripVTControlCharacters } from "node:util";
import { repoRoot } from "../paths";

/** Inputs of the production build: if none changed since the last build, `npm start` reuses `.next`. */
const BUILD_INPUTS = ["app", "components", "lib", "middleware.ts", "next.config.ts", "package-lock.json", "postcss.config.mjs", "tsconfig.json", "public"];

function walk(p: string, out: string[]): void {
  if (!existsSync(p)) return;
  const st = statSync(p);
  if (st.isDirectory()) {
    for (const name of readdirSync(p).sort()) walk(path.join(p, name), out);
  } else {
    out.push(`${path.relative(repoRoot, p)}:${st.size}:${Math.floor(st.mtimeMs)}`);
  }
}

export function sourceFingerprint(): string {
  const entries: string[] = [];
  for (const input of BUILD_INPUTS) walk(path.join(repoRoot, input), entries);
  return createHash("sha256").update(entries.join("\n")).digest("hex");
}

const markerFile = (distDir: string) => path.resolve(repoRoot, distDir, ".source-fingerprint");

export function buildIsCurrent(distDir: string): boolean {
  const marker = markerFile(distDir);
  return existsSync(path.resolve(repoRoot, distDir, "BUILD_ID")) && existsSync(marker) && readFileSync(marker, "utf8") === sourceFingerprint();
}

export function recordBuild(distDir: string, fingerprint: string): void {
  writeFileSync(markerFile(distDir), fingerprint);
}

/** The stages `next build` prints, in order, and the share of the bar each one starts at. */
const BUILD_STAGES: Array<{ match: RegExp; label: string; at: number }> = [
  { match: /Creating an optimized production build/, label: "compiling", at: 0.02 },
  { match: /Compiled (successfully|with warnings)/, label: "compiled", at: 0.6 },
  { match: /Running TypeScript|Linting and checking validity of types/, label: "type-checking", at: 0.62 },
  { match: /Collecting page data/, label: "collecting page data", at: 0.85 },
  { match: /Generating static pages/, label: "generating pages", at: 0.9 },
  { match: /Finalizing page optimization|Collecting build traces/, label: "finalizing", at: 0.95 },
];

/** Which stage a line of `next build` output announces, if any. */
export function buildStageOf(line: string): { label: string; at: number } | null {
  for (const s of BUILD_STAGES) if (s.match.test(line)) return { label: s.label, at: s.at };
  return null;
}

export interface BuildProgress {
  stage(detail: string, fraction: number): void;
}

export interface RunningBuild {
  /** Resolves once the build succeeded and was recorded; rejects with the reason (exit code and output tail) otherwise. */
  done: Promise<void>;
  /** Stop the build (its whole process group) and wait for it; a no-op once it ended. */
  stop(): Promise<void>;
}

/**
 * `next build` into `distDir` as a child process of its own process group (so stopping it stops Next's workers too),
 * its output kept in `logFile` (the display shows its stages; a failure names the file and quotes the last lines).
 * The fingerprint is taken once it succeeded, as before the overlap: `next build` may itself write tsconfig.json.
 */
export function startBuild(opts: { env: NodeJS.ProcessEnv; distDir: string; logFile: string; progress: BuildProgress; command?: { file: string; args: string[] } }): RunningBuild {
  mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const log = createWriteStream(opts.logFile);
  const file = opts.command?.file ?? process.execPath;
  const args = opts.command?.args ?? [path.join(repoRoot, "node_modules", "next", "dist", "bin", "next"), "build"];
  const child = spawn(file, args, { cwd: repoRoot, env: opts.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const tail: string[] = [];
  let partial = "";
  const onData = (chunk: Buffer) => {
    log.write(chunk);
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      // Next colours and spins its output: the stage names survive once escapes are gone.
      const plain = stripVTControlCharacters(line).trimEnd();
      if (!plain.trim()) continue;
      tail.push(plain);
      if (tail.length > 30) tail.shift();
      const stage = buildStageOf(plain);
      if (stage) opts.progress.stage(stage.label, stage.at);
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  let stopped = false;
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.on("error", (error) => resolve({ code: null, signal: null, error }));
    // The last lines arrive with "close"; a straggler of Next's still holding the pipe must not hold the start up.
    child.on("exit", (code, signal) => void Promise.race([closed, delay(1000)]).then(() => resolve({ code, signal })));
  });
  const done = exited.then(async ({ code, signal, error }) => {
    await new Promise<void>((resolve) => log.end(resolve));
    if (code === 0) {
      recordBuild(opts.distDir, sourceFingerprint());
      return;
    }
    const how = error ? error.message : signal ? `signal ${signal}` : `exit code ${code}`;
    const why = stopped ? "stopped" : `failed (${how})`;
    throw new BuildFailed(`next build ${why}; its output is in ${path.relative(repoRoot, opts.logFile)}`, stopped ? [] : tail.slice(-20));
  });
  // The caller may await `done` late (after seeding): a failure is never an unhandled rejection meanwhile.
  done.catch(() => undefined);
  return {
    done,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      stopped = true;
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // The group is already gone.
      }
      await exited;
    },
  };
}

/** A failed (or stopped) build: the message says where its output is, `tail` holds its last lines. */
export class BuildFailed extends Error {
  constructor(
    message: string,
    readonly tail: string[],
  ) {
    super(message);
    this.name = "BuildFailed";
  }
}
