import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
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

const markerFile = (distDir: string) => path.join(repoRoot, distDir, ".source-fingerprint");

export function buildIsCurrent(distDir: string): boolean {
  const marker = markerFile(distDir);
  return existsSync(path.join(repoRoot, distDir, "BUILD_ID")) && existsSync(marker) && readFileSync(marker, "utf8") === sourceFingerprint();
}

export function recordBuild(distDir: string, fingerprint: string): void {
  writeFileSync(markerFile(distDir), fingerprint);
}
