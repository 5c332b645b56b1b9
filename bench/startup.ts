/**
 * bench/startup: how long `npm start` takes until the app answers /api/health/status, run N times in a row
 * (the first run may initialise Postgres, seed, index and build; later runs reuse `.data/` and the build).
 * Prints JSON. Usage: npm run bench:startup -- [--runs 2]
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "../server/paths";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 2) || 2;
const port = Number(process.env.PORT ?? 3000);

async function once(): Promise<{ ready_ms: number; stop_ms: number; log_tail: string[] }> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(repoRoot, "node_modules", "tsx", "dist", "cli.mjs"), "server/launcher/start.ts", "--mode=production"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const collect = (b: Buffer) => lines.push(...b.toString().split("\n").filter(Boolean));
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const readyMs = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      if (lines.some((l) => l.includes("[stack] ready."))) {
        clearInterval(timer);
        resolve(performance.now() - started);
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`npm start exited early:\n${lines.slice(-20).join("\n")}`));
      }
    }, 50);
  });
  const res = await fetch(`http://127.0.0.1:${port}/api/health/status`);
  if (res.status !== 200) throw new Error(`health answered ${res.status}`);
  const stopStarted = performance.now();
  child.kill("SIGTERM");
  await new Promise((r) => child.on("exit", r));
  return { ready_ms: Math.round(readyMs), stop_ms: Math.round(performance.now() - stopStarted), log_tail: lines.slice(-6) };
}

async function main() {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once());
  const later = results.slice(1).map((r) => r.ready_ms);
  console.log(
    JSON.stringify(
      {
        bench: "startup",
        runs: results.map(({ ready_ms, stop_ms }) => ({ ready_ms, stop_ms })),
        first_ready_ms: results[0].ready_ms,
        repeat_ready_ms_max: later.length ? Math.max(...later) : null,
        target_repeat_ready_ms: 15000,
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
