/**
 * An upload's source told from its first bytes (lib/import/detect.ts) on the real samples, and the stored file's
 * name (lib/backend/imports/upload.ts safeFileName): never a path, never a glob the importer would expand.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectSource, detectSourceOf } from "@/lib/import/detect";
import { safeFileName } from "@/lib/backend/imports/upload";

const FIX = path.join(process.cwd(), "tests/fixtures/real-formats");
const text = (s: string) => ({ text: s, bytes: Buffer.from(s) });

describe("detectSource", () => {
  it.each([
    ["saos/api-judgments-227221.common-court.json", "saos"],
    ["saos/dump-item-205374.constitutional-tribunal.json", "saos"],
    ["uk-find-case-law/ewca-civ-2025-673.enriched.akn.xml", "fcl"],
    ["uk-find-case-law/atom-feed.api-spec-example.xml", "fcl"],
    [`juddges/${readdirSync(path.join(FIX, "juddges")).find((f) => f.startsWith("pl-court-raw.row-v1"))}`, "juddges"],
  ])("%s → %s", async (file, source) => {
    expect(await detectSource(path.join(FIX, file))).toBe(source);
  });

  it("parquet by its magic bytes, our JSONL by its keys, nothing from unknown JSON or text", () => {
    expect(detectSourceOf({ text: "PAR1", bytes: Buffer.from("PAR1\u0000\u0000") })).toBe("juddges");
    expect(detectSourceOf(text('{"source_id":"a","jurisdiction":"PL","full_text":"x"}\n'))).toBe("jsonl");
    expect(detectSourceOf(text('{"judgment_id":"1","docket_number":"I C 1/20","full_text":"x"}'))).toBe("juddges");
    expect(detectSourceOf(text('{"hello":"world"}'))).toBeNull();
    expect(detectSourceOf(text("id,text\n1,x"))).toBeNull();
    expect(detectSourceOf(text(""))).toBeNull();
  });
});

describe("safeFileName", () => {
  it.each([
    ["dump.json", "dump.json"],
    ["../../etc/passwd", "passwd"],
    ["C:\\Users\\a\\wyrok [1].xml", "wyrok_1_.xml"],
    ["*.json", "_.json"],
    ["...", "upload"],
    ["żółw {a,b}.jsonl", "_w_a_b_.jsonl"],
  ])("%s → %s", (name, safe) => {
    expect(safeFileName(name)).toBe(safe);
  });
});
