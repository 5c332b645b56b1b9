/**
 * The embedded Postgres cluster's guard: a small process the launcher starts beside the cluster it started
 *
 *   node --import tsx server/launcher/postgres-guard.ts --launcher <pid> --dir <cluster folder>
 *
 * Postgres is a child of the launcher that does not watch it, so a launcher killed with SIGKILL left the cluster
 * running. The guard polls the launcher; once it is gone, it stops the cluster with SIGINT (Postgres's fast shutdown:
 * open transactions roll back, committed data is kept) — only a live postmaster serving that folder (the
 * postmaster.pid check of ./postgres), never another process that reused the PID. Then, or when the cluster stopped on
 * its own (a normal launcher stop), it exits. It ignores SIGINT, so a Ctrl-C that ends a stuck launcher still gets the
 * cluster stopped; SIGTERM ends it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { postmasterPidIsStale, processAlive } from "./postgres";

const { values } = parseArgs({ options: { launcher: { type: "string" }, dir: { type: "string" }, every: { type: "string", default: "1000" } } });
const launcher = Number(values.launcher);
const dir = values.dir ? path.resolve(values.dir) : "";
if (!Number.isInteger(launcher) || launcher <= 0 || !dir) {
  process.stderr.write("usage: postgres-guard.ts --launcher <pid> --dir <cluster folder>\n");
  process.exit(2);
}

const alive = processAlive;

/** The postmaster's PID when a live postgres serves `dir`, else null. */
function postmaster(): number | null {
  try {
    const pid = Number(readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 && !postmasterPidIsStale(dir) ? pid : null;
  } catch {
    return null;
  }
}

process.on("SIGINT", () => undefined);
process.on("SIGTERM", () => process.exit(0));
setInterval(() => {
  const pg = postmaster();
  if (pg === null) process.exit(0); // the cluster stopped: nothing left to guard
  if (alive(launcher)) return;
  process.stdout.write(`[postgres-guard] the launcher (pid ${launcher}) is gone: stopping the cluster in ${dir}\n`);
  process.kill(pg, "SIGINT");
  process.exit(0);
}, Number(values.every));
