/**
 * The guard of `npm run prod:check`: a small process of its own that stops what the check started should the check
 * itself die without stopping it (SIGKILL, a crash, a wrapper that killed it). It polls the check's PID; once that is
 * gone it sends SIGTERM to every process group named in the state file the check keeps up to date, SIGKILL to what is
 * left after 15 s, drops the scratch database and deletes the run folder. It exits without doing anything when the
 * check deletes the state file (a normal end: the check stopped everything itself).
 *
 *   node --import tsx scripts/prod-check/guard.ts --parent <pid> --state <file>
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";

export interface GuardState {
  groups: number[];
  /** The scratch database on a server the check does not own (absent for the stand-in cluster: its own guard stops it). */
  database?: { adminUrl: string; name: string };
  runDir: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone
  }
}

async function cleanUp(state: GuardState): Promise<void> {
  for (const g of state.groups) signalGroup(g, "SIGTERM");
  const end = Date.now() + 15_000;
  while (state.groups.some((g) => alive(-g)) && Date.now() < end) await sleep(200);
  for (const g of state.groups) signalGroup(g, "SIGKILL");
  if (state.database) {
    const client = new pg.Client({ connectionString: state.database.adminUrl, connectionTimeoutMillis: 5_000 });
    await client.connect();
    await client.query(`drop database if exists ${pg.escapeIdentifier(state.database.name)} with (force)`).finally(() => client.end());
    rmSync(state.runDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { parent: { type: "string" }, state: { type: "string" } } });
  const parent = Number(values.parent);
  const stateFile = values.state ?? "";
  if (!Number.isInteger(parent) || parent <= 0 || !stateFile) throw new Error("usage: guard.ts --parent <pid> --state <file>");
  // A Ctrl-C reaches the whole terminal group; the guard must outlive it to do its work.
  process.on("SIGINT", () => undefined);
  for (;;) {
    if (!existsSync(stateFile)) return;
    if (!alive(parent)) break;
    await sleep(1000);
  }
  if (!existsSync(stateFile)) return;
  await cleanUp(JSON.parse(readFileSync(stateFile, "utf8")) as GuardState);
}

main().catch((e: unknown) => {
  process.stderr.write(`prod:check guard: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
