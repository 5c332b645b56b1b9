/**
 * After `npm run seed -- --reset --size N` the launcher must not serve the old index until the next
 * full sync. indexRebuildReason is the launcher's rule (lib/search/sync.ts); the database side (the truncation log
 * and the launcher itself) is in tests/db/search-index-rebuild.test.ts.
 */
import { describe, expect, it } from "vitest";
import { INDEX_DRIFT_TOLERANCE, indexRebuildReason, type IndexState } from "@/lib/search/sync";

const built = new Date("2026-11-20T10:00:00Z");
const current: IndexState = { indexDocuments: 12307, embedderRegistered: true, judgments: 12307, lastFullSyncAt: built, lastTruncatedAt: null };

describe("indexRebuildReason", () => {
  it("serves an index that matches the table", () => {
    expect(indexRebuildReason(current)).toBeNull();
  });

  it("builds nothing while the table is empty", () => {
    expect(indexRebuildReason({ ...current, judgments: 0 })).toBeNull();
    expect(indexRebuildReason({ ...current, judgments: 0, indexDocuments: 0 })).toBeNull();
  });

  it("rebuilds an empty index or one built with another embedder", () => {
    expect(indexRebuildReason({ ...current, indexDocuments: 0 })).toMatch(/empty/);
    expect(indexRebuildReason({ ...current, embedderRegistered: false })).toMatch(/embedder/);
  });

  it("rebuilds after the table was truncated later than the index's last full build started", () => {
    const later = new Date(built.getTime() + 1000);
    expect(indexRebuildReason({ ...current, lastTruncatedAt: later })).toMatch(/seed --reset/);
    // No full build recorded at all, but a truncation is: the index cannot be known to postdate it.
    expect(indexRebuildReason({ ...current, lastFullSyncAt: null, lastTruncatedAt: later })).toMatch(/seed --reset/);
    // A truncation before the build is what the build already covers.
    expect(indexRebuildReason({ ...current, lastTruncatedAt: new Date(built.getTime() - 1000) })).toBeNull();
    expect(indexRebuildReason({ ...current, lastTruncatedAt: built })).toBeNull();
  });

  it("rebuilds when the counts are more than 1 % apart, either way, and leaves a smaller gap to the incremental sync", () => {
    expect(INDEX_DRIFT_TOLERANCE).toBe(0.01);
    // The reseed of the issue: the old 12k index against a 123,070-row table.
    expect(indexRebuildReason({ ...current, judgments: 123070 })).toMatch(/12307 documents and public\.judgments 123070 rows/);
    expect(indexRebuildReason({ ...current, indexDocuments: 123070 })).toMatch(/more than 1 %/);
    const n = 10_000;
    expect(indexRebuildReason({ ...current, judgments: n, indexDocuments: n + 100 })).toBeNull();
    expect(indexRebuildReason({ ...current, judgments: n, indexDocuments: n - 100 })).toBeNull();
    expect(indexRebuildReason({ ...current, judgments: n, indexDocuments: n + 101 })).not.toBeNull();
    expect(indexRebuildReason({ ...current, judgments: n, indexDocuments: n - 101 })).not.toBeNull();
    // A tiny table: one row apart is more than 1 % of 50.
    expect(indexRebuildReason({ ...current, judgments: 50, indexDocuments: 49 })).not.toBeNull();
  });
});
