import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parse } from "dotenv";

/** Read KEY=VALUE pairs from a dotenv file (empty object when missing). */
export function readEnvFile(file: string): Record<string, string> {
  return existsSync(file) ? parse(readFileSync(file, "utf8")) : {};
}

/** Add the missing keys to the dotenv file, keeping whatever the developer already wrote. Returns the keys added. */
export function addMissingToEnvFile(file: string, values: Record<string, string | undefined>): string[] {
  const current = readEnvFile(file);
  const added = Object.entries(values).filter(([k, v]) => v !== undefined && current[k] === undefined);
  if (added.length === 0) return [];
  // Single quotes keep the value literal in dotenv (a JWK's JSON survives unescaped).
  const lines = added.map(([k, v]) => `${k}=${String(v).includes("'") ? JSON.stringify(v) : `'${v}'`}`);
  const prefix = existsSync(file) ? readFileSync(file, "utf8").replace(/\n*$/, "\n") : "# Written by the local stack launcher (gitignored). Edit freely; values you set are kept.\n";
  writeFileSync(file, prefix + lines.join("\n") + "\n", { mode: 0o600 });
  return added.map(([k]) => k);
}
