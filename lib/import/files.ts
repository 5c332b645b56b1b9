/** The inputs of an import: files, directories (walked, sorted) and glob patterns the shell did not expand. */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import fg from "fast-glob";

const GLOB = /[*?[\]{}]/;

export async function expandInputs(inputs: readonly string[]): Promise<{ files: string[]; missing: string[] }> {
  const files: string[] = [];
  const missing: string[] = [];
  for (const input of inputs) {
    if (GLOB.test(input)) {
      const hits = (await fg(input, { onlyFiles: true, dot: false })).sort();
      if (!hits.length) missing.push(input);
      files.push(...hits);
      continue;
    }
    const s = await stat(input).catch(() => null);
    if (!s) missing.push(input);
    else if (s.isDirectory()) files.push(...(await walk(input)));
    else files.push(input);
  }
  return { files: [...new Set(files)], missing };
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else if (e.isFile() && !/\.(md|txt)$/i.test(e.name)) out.push(p);
  }
  return out;
}
