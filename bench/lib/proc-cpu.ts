/**
 * CPU time of a local Postgres cluster (the postmaster, its live processes and the ones it has reaped), read from
 * /proc: on a machine shared with other work, wall-clock throughput says more about the neighbours than about the
 * code, and CPU milliseconds per record are what a quiet machine would spend. Linux only; 0 elsewhere.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Fields after the command name of /proc/<pid>/stat (index 0 is field 3, the state). */
function statFields(pid: string): number[] | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    return s.slice(s.lastIndexOf(")") + 2).split(" ").map(Number);
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux on every architecture node runs on). */
const TICKS_PER_S = 100;

/** User + system CPU milliseconds the cluster in `postgresDir` has used so far (0 when it cannot be read). */
export function postgresCpuMs(postgresDir: string): number {
  let postmaster: string;
  try {
    postmaster = readFileSync(path.join(postgresDir, "postmaster.pid"), "utf8").split("\n")[0].trim();
  } catch {
    return 0;
  }
  const pm = statFields(postmaster);
  if (!pm) return 0;
  // utime, stime, cutime, cstime are fields 14-17: the postmaster's own and its reaped children's (ended backends).
  let ticks = pm[11] + pm[12] + pm[13] + pm[14];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const f = statFields(pid);
    if (f && String(f[1]) === postmaster) ticks += f[11] + f[12];
  }
  return (ticks * 1000) / TICKS_PER_S;
}

/** This process' user + system CPU milliseconds since `since` (process.cpuUsage()). */
export function ownCpuMs(since: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}
