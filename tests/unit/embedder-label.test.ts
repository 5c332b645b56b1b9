import { describe, expect, it } from "vitest";
import { embedderLabel } from "@/lib/i18n/embedder-label";
import { en } from "@/lib/i18n/en";
import { pl } from "@/lib/i18n/pl";
import { LocalHashEmbedder, LOCAL_HASH_WIDE_DIMENSIONS } from "@/lib/search/embedders";

/** The Embeddings tab shows the server's embedders in the interface language. */
describe("embedderLabel", () => {
  const lexical = [new LocalHashEmbedder(), new LocalHashEmbedder(LOCAL_HASH_WIDE_DIMENSIONS)];

  it("English labels of the lexical embedders are the server's own", () => {
    for (const e of lexical) expect(embedderLabel(en.accounts.settings.embedderLabels, e.id, e.label)).toBe(e.label);
  });

  it("Polish translates every known id, and names a configured model", () => {
    for (const e of lexical) {
      const label = embedderLabel(pl.accounts.settings.embedderLabels, e.id, e.label);
      expect(label).not.toBe(e.label);
      expect(label).toContain("leksykalny");
    }
    expect(embedderLabel(pl.accounts.settings.embedderLabels, "ai:text-embedding-3-small", "text-embedding-3-small")).toBe(
      "model osadzeń text-embedding-3-small",
    );
    expect(embedderLabel(en.accounts.settings.embedderLabels, "ai:bge-m3", "bge-m3")).toBe("embedding model bge-m3");
  });

  it("an id the interface does not know keeps the server's label", () => {
    expect(embedderLabel(pl.accounts.settings.embedderLabels, "something-else", "Server label")).toBe("Server label");
    expect(embedderLabel(pl.accounts.settings.embedderLabels, "ai:", "raw")).toBe("raw");
  });
});
