/**
 * bench/assistants: the no-model assistants through the app, printing JSON. Runs its two parts one after the other,
 * each in its own process so one part's heap does not weigh on the other's figures:
 *   bench/assistants-chat.ts   chat time to first token and to done (targets ≤ 300 ms and ≤ 1 s through the app);
 *   bench/assistants-tools.ts  precedents p50 (≤ 150 ms), summarize a 30,000-character judgment (≤ 200 ms).
 * Arguments are passed through to both (e.g. --app-url http://127.0.0.1:3000).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

let failed = false;
for (const part of ["assistants-chat.ts", "assistants-tools.ts"]) {
  const file = join(__dirname, part);
  if (!existsSync(file)) continue;
  const r = spawnSync(process.execPath, [join(__dirname, "..", "node_modules", "tsx", "dist", "cli.mjs"), file, ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
