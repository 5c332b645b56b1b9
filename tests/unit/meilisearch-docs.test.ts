/** docs/meilisearch.md carries the settings generated from the one declaration (regenerate:
 * `npx tsx lib/search/meilisearch/settings-doc.ts --write`). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BEGIN, DOC_PATH, END, settingsSection, withSettingsSection } from "@/lib/search/meilisearch/settings-doc";
import { documentsPhase1 } from "@/lib/search/meilisearch/settings";

describe("docs/meilisearch.md", () => {
  const doc = readFileSync(DOC_PATH, "utf8");

  it("has the current generated settings section", () => {
    expect(doc).toContain(BEGIN);
    expect(doc).toContain(END);
    expect(withSettingsSection(doc)).toBe(doc);
  });

  it("shows the settings as valid JSON equal to what the adapter sends", () => {
    const first = /```json\n([\s\S]*?)\n```/.exec(settingsSection())![1];
    expect(JSON.parse(first)).toEqual(documentsPhase1());
  });

  it("documents the dump-based upgrade steps of spec Versioning 5", () => {
    for (const step of ['-X POST "$MEILI_HOST/dumps"', "--import-dump", "rm -rf /meili_data/data.ms", "numberOfDocuments", "settings/embedders", "Rollback"]) {
      expect(doc).toContain(step);
    }
  });
});
