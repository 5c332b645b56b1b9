/**
 * The model path: with a model configured (EMBEDDING_MODEL on an OpenAI-compatible server), the
 * settings offer it under the id its embedder reports (`ai:<model>`) and switching to it goes through the real
 * createEmbedderById → @ai-sdk/openai → HTTP path. The "server" is a small node:http embeddings endpoint on 127.0.0.1
 * (tests/helpers/fake-embeddings.ts); Postgres and the LanceDB index are real. The switch completes, the settings
 * (GET /api/settings/embeddings's body) show the new active embedder, searches answer throughout, and health's
 * `search_engine.reembed` shows the progress while it runs and after.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { defaultChecks } from "@/lib/backend/health/checks";
import { healthForCaller, healthStatus } from "@/lib/backend/health/status";
import { embeddingsSettings, switchEmbedder } from "@/lib/backend/settings/embeddings";
import { reembedSettled, reembedStatus } from "@/lib/backend/settings/reembed";
import { chosenEmbedderId, LocalHashEmbedder } from "@/lib/search/embedders";
import { getSearch, setSearchEngineForTests } from "@/lib/search/engine";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { fullSync } from "@/lib/search/sync";
import { startFakeEmbeddings, type FakeEmbeddings } from "../helpers/fake-embeddings";
import { adminPool, stackEnv } from "../helpers/stack";

const MODEL = "fake-embed";
const DIMENSIONS = 32;
const ENV_KEYS = ["SEARCH_DATA_DIR", "DATABASE_URL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "EMBEDDING_MODEL", "EMBEDDING_DIMENSIONS", "MEILI_HOST"] as const;

async function healthReembed(role: "user" | "admin") {
  return healthForCaller(await healthStatus(defaultChecks()), role).dependencies.search_engine.reembed;
}

describe("embedder switch to a configured model (real createEmbedderById, fake OpenAI-compatible server)", () => {
  let pool: pg.Pool;
  let dir: string;
  let fake: FakeEmbeddings;
  const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

  beforeAll(async () => {
    pool = adminPool();
    fake = await startFakeEmbeddings(DIMENSIONS);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedder-switch-model-"));
    Object.assign(process.env, {
      SEARCH_DATA_DIR: dir,
      DATABASE_URL: stackEnv().databaseUrl,
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_API_KEY: "sk-test-not-a-secret",
      EMBEDDING_MODEL: MODEL,
      EMBEDDING_DIMENSIONS: String(DIMENSIONS),
    });
    delete process.env.MEILI_HOST;
    resetConfigForTests();
    // The index starts lexical (as after an earlier switch back): the model is configured but not yet in use.
    const embedder = new LocalHashEmbedder();
    const engine = new LanceDbEngine({ dir, embedder });
    await fullSync(pool, { engine, embedder });
    setSearchEngineForTests({ engine, embedder });
  }, 300_000);

  afterAll(async () => {
    await reembedSettled();
    await getSearch().engine.close();
    setSearchEngineForTests(undefined);
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    resetConfigForTests();
    await pool.end();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("offers the model once, under its embedder's id", () => {
    const before = embeddingsSettings({ admin: false });
    expect(before.active).toEqual({ id: "local-hash", label: "lexical (no model configured)", dimensions: 384 });
    expect(before.available.map((e) => e.id)).toEqual(["local-hash", "local-hash-768", `ai:${MODEL}`]);
    expect(before.available.find((e) => e.id === `ai:${MODEL}`)).toEqual({ id: `ai:${MODEL}`, label: MODEL, dimensions: DIMENSIONS });
  });

  it("the switch completes; the settings show the model as active; searches answer throughout; health shows the progress", async () => {
    const old = getSearch();
    const judgments = Number((await pool.query<{ n: string }>("select count(*) as n from public.judgments")).rows[0].n);
    const started = switchEmbedder(`ai:${MODEL}`);
    expect(started.reembed).toMatchObject({ state: "running", id: `ai:${MODEL}`, from: "local-hash", error: null });

    // While it runs: health carries the progress (for users too; it holds no secret), searches answer from the old index.
    let during = 0;
    let lastDone = 0;
    let sawRunningInHealth = false;
    while (reembedStatus()?.state === "running") {
      if (!sawRunningInHealth) {
        const entry = await healthReembed("user");
        if (entry?.state === "running") {
          expect(entry).toMatchObject({ id: `ai:${MODEL}`, from: "local-hash", error: null });
          expect(entry.done).toBeGreaterThanOrEqual(0);
          expect(entry.done).toBeLessThanOrEqual(entry.total);
          sawRunningInHealth = true;
        }
      }
      const holder = getSearch();
      const res = await holder.engine.searchDocuments({ q: "sentence appeal", limit: 5, offset: 0, semanticRatio: 0.5 });
      expect(res.hits.length).toBeGreaterThan(0);
      const progress = reembedStatus();
      if (progress?.state === "running") {
        expect(holder.embedder.id).toBe("local-hash");
        expect(progress.done).toBeGreaterThanOrEqual(lastDone);
        lastDone = progress.done;
      }
      during++;
      // Not a timing assertion: leave the build room between searches (one process, two busy cores).
      await new Promise((r) => setTimeout(r, 250));
    }
    await reembedSettled();
    expect(during).toBeGreaterThan(0);
    expect(sawRunningInHealth).toBe(true);
    expect(reembedStatus()).toMatchObject({ state: "completed", id: `ai:${MODEL}`, done: judgments, total: judgments, error: null });

    // Every chunk went through the HTTP model path, with the configured model name.
    expect(fake.inputs()).toBeGreaterThanOrEqual(judgments);
    expect(new Set(fake.models)).toEqual(new Set([MODEL]));

    // GET's body: the model is active, listed once.
    const after = embeddingsSettings({ admin: false });
    expect(after.active).toEqual({ id: `ai:${MODEL}`, label: MODEL, dimensions: DIMENSIONS });
    expect(after.available.map((e) => e.id)).toEqual(["local-hash", "local-hash-768", `ai:${MODEL}`]);
    expect(after.reembed).toMatchObject({ state: "completed", id: `ai:${MODEL}` });
    expect(chosenEmbedderId()).toBe(`ai:${MODEL}`);

    // Health after: the finished progress for both roles, and the engine on the model's vectors.
    for (const role of ["user", "admin"] as const) {
      expect(await healthReembed(role)).toMatchObject({ state: "completed", id: `ai:${MODEL}`, done: judgments, total: judgments, error: null });
    }
    const now = getSearch();
    expect(now).not.toBe(old);
    expect(now.embedder.id).toBe(`ai:${MODEL}`);
    expect(await now.engine.health()).toMatchObject({ status: "ok", embedder: { id: `ai:${MODEL}`, dimensions: DIMENSIONS, registered: true } });

    // A hybrid search now embeds the query through the model server and answers from the new vectors.
    const inputsBefore = fake.inputs();
    const res = await now.engine.searchDocuments({ q: "sentence appeal", limit: 5, offset: 0, semanticRatio: 0.5 });
    expect(res.hits.length).toBeGreaterThan(0);
    expect(fake.inputs()).toBeGreaterThan(inputsBefore);
    await old.engine.close();
  }, 600_000);
});
