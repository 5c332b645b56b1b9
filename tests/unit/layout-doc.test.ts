import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** docs/engineering.md's tree (the fenced block under "## Layout") against the tracked files. */
const root = path.resolve(__dirname, "../..");
const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).trim().split("\n");
const dirs = new Set(tracked.flatMap((f) => f.split("/").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("/"))));

function documentedTree(): { path: string; note: string }[] {
  const doc = readFileSync(path.join(root, "docs/engineering.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Layout"));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("docs/engineering.md: no fenced tree under ## Layout");
  const stack: string[] = [];
  return block
    .split("\n")
    .filter((l) => l.trim())
    .map((line) => {
      const m = /^( *)(\S+\/)\s+(.*)$/.exec(line);
      if (!m) throw new Error(`docs/engineering.md: not "folder/  note": ${line}`);
      const depth = m[1].length / 2;
      stack.length = depth;
      stack.push(m[2].replace(/\/$/, ""));
      return { path: stack.join("/"), note: m[3].trim() };
    });
}

describe("docs/engineering.md layout matches git ls-files", () => {
  const tree = documentedTree();
  const listed = new Set(tree.map((t) => t.path));

  it("every folder listed exists, each with one line saying what it holds", () => {
    for (const t of tree) {
      expect(dirs.has(t.path), `${t.path}/ is in the doc but not in git ls-files`).toBe(true);
      expect(t.note.length, `${t.path}/ needs a description`).toBeGreaterThan(5);
    }
    expect(listed.size).toBe(tree.length); // no folder twice
  });

  it("every top-level folder and every folder under lib/, server/ and supabase/ is listed", () => {
    const required = [...dirs].filter((d) => !d.includes("/") || /^(lib|server|supabase)\/[^/]+$/.test(d));
    expect(required.filter((d) => !listed.has(d))).toEqual([]);
  });
});
