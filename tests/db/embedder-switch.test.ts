/**
 * Switching the index's embedder re-embeds in the background (lib/backend/settings/reembed.ts).
 * Real Postgres and a real LanceDB index in a temp dir; the process's engine is the one searches use. A switch
 * completes and swaps while searches keep answering; a failing one (an ai SDK mock embedding model that errors) keeps
 * the old index and embedder and reports the error.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { MockEmbeddingModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { AiSdkEmbedder, chosenEmbedderId, LocalHashEmbedder } from "@/lib/search/embedders";
import { defaultChecks } from "@/lib/backend/health/checks";
import { healthForCaller, healthStatus } from "@/lib/backend/health/status";
import { embeddingsSettings } from "@/lib/backend/settings/embeddings";
import { reembedSettled, reembedStatus, startReembed } from "@/lib/backend/settings/reembed";
import { getSearch, setSearchEngineForTests } from "@/lib/search/engine";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { fullSync } from "@/lib/search/sync";
import { adminPool, stackEnv } from "../helpers/stack";


describe("embedder switch (re-embed in the background)", () => {
  let pool: pg.Pool;
  let dir: string;
  const saved = process.env.SEARCH_DATA_DIR;

  beforeAll(async () => {
    pool = adminPool();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedder-switch-"));
    process.env.SEARCH_DATA_DIR = dir;
    resetConfigForTests();
    const embedder = new LocalHashEmbedder();
    const engine = new LanceDbEngine({ dir, embedder });
    await fullSync(pool, { engine, embedder });
    setSearchEngineForTests({ engine, embedder });
  }, 300_000);

  afterAll(async () => {
    await reembedSettled();
    await getSearch().engine.close();
    setSearchEngineForTests(undefined);
    if (saved === undefined) delete process.env.SEARCH_DATA_DIR;
    else process.env.SEARCH_DATA_DIR = saved;
    resetConfigForTests();
    await pool.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("rejects an embedder this server does not offer (422)", () => {
    expect(() => startReembed("no-such-embedder", { databaseUrl: stackEnv().databaseUrl })).toThrow(
      expect.objectContaining({ status: 422, code: "EMBEDDER_UNAVAILABLE" }),
    );
  });

  it("a failing re-embed keeps the old index and embedder and reports the error", async () => {
    const before = getSearch();
    const failing = new AiSdkEmbedder({
      model: new MockEmbeddingModelV3({
        doEmbed: async () => {
          throw new Error("embedding server unreachable");
        },
      }),
      modelId: "mock-embedder",
      dimensions: 8,
      timeoutMs: 5000,
    });
    const started = startReembed("ai:mock-embedder", { embedder: failing, databaseUrl: stackEnv().databaseUrl });
    expect(started?.state).toBe("running");
    await reembedSettled();
    const status = reembedStatus();
    expect(status).toMatchObject({ state: "failed", id: "ai:mock-embedder", from: "local-hash" });
    expect(status?.error).toContain("embedding server unreachable");
    // The failure text reaches admins only, in the settings and in health; everyone else sees "failed".
    expect(embeddingsSettings({ admin: true }).reembed?.error).toContain("embedding server unreachable");
    expect(embeddingsSettings({ admin: false }).reembed).toMatchObject({ state: "failed", id: "ai:mock-embedder", error: "failed" });
    const health = await healthStatus(defaultChecks());
    expect(healthForCaller(health, "admin").dependencies.search_engine.reembed?.error).toContain("embedding server unreachable");
    expect(healthForCaller(health, "user").dependencies.search_engine.reembed).toMatchObject({ state: "failed", error: "failed" });
    expect(getSearch()).toBe(before);
    expect(chosenEmbedderId()).toBeNull();
    const res = await getSearch().engine.searchDocuments({ q: "sentence", limit: 5, offset: 0 });
    expect(res.hits.length).toBeGreaterThan(0);
    expect((await getSearch().engine.health()).embedder.id).toBe("local-hash");
  });

  it("a switch completes and swaps; searches during it keep answering from the old index", async () => {
    const old = getSearch();
    const judgments = Number((await pool.query<{ n: string }>("select count(*) as n from public.judgments")).rows[0].n);
    startReembed("local-hash-768", { databaseUrl: stackEnv().databaseUrl });
    expect(() => startReembed("local-hash", { databaseUrl: stackEnv().databaseUrl })).toThrow(
      expect.objectContaining({ status: 409, code: "REEMBED_IN_PROGRESS" }),
    );
    // Searches while the new vectors are built: answered by the old engine with the old embedder.
    let during = 0;
    while (reembedStatus()?.state === "running") {
      const holder = getSearch();
      const res = await holder.engine.searchDocuments({ q: "sentence appeal", limit: 5, offset: 0, semanticRatio: 0.5 });
      expect(res.hits.length).toBeGreaterThan(0);
      if (reembedStatus()?.state === "running") expect(holder.embedder.id).toBe("local-hash");
      during++;
      // Not a timing assertion: leave the build room between searches (one process, two busy cores).
      await new Promise((r) => setTimeout(r, 250));
    }
    await reembedSettled();
    const status = reembedStatus();
    expect(status).toMatchObject({ state: "completed", id: "local-hash-768", from: "local-hash", done: judgments, total: judgments });
    expect(during).toBeGreaterThan(0);
    const now = getSearch();
    expect(now).not.toBe(old);
    expect(now.embedder.id).toBe("local-hash-768");
    expect(chosenEmbedderId()).toBe("local-hash-768");
    const health = await now.engine.health();
    expect(health).toMatchObject({ status: "ok", embedder: { id: "local-hash-768", dimensions: 768, registered: true } });
    const res = await now.engine.searchDocuments({ q: "sentence appeal", limit: 5, offset: 0 });
    expect(res.hits.length).toBeGreaterThan(0);
    await old.engine.close();
  }, 600_000);
});
