/**
 * The reasoning-phrase filler (P-54, lib/backend/analysis/judge-phrases.ts fillPhraseCounts, run by the worker's
 * pg-boss schedule): judgments without current stored counts are counted ahead of any profile, in bounded batches, newest
 * first, with the same countPhrases the profile's lazy path uses; a changed text is counted again on the next pass; a
 * judge's record then carries the stored counts instead of the texts.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/supabase/db-client";
import { config } from "@/lib/config";
import { countPhrases, fillPhraseCounts, PATTERNS_VERSION } from "@/lib/backend/analysis/judge-phrases";
import { adminPool } from "../helpers/stack";
import { serviceClient } from "../helpers/supabase";

const pool = adminPool();
afterAll(() => pool.end());
const service = serviceClient() as unknown as DbClient;

/** The newest judgments in the filler's order, with their texts. */
async function newest(n: number) {
  const { rows } = await pool.query<{ id: string; full_text: string; judge: string | null }>(
    `select id::text, coalesce(full_text, '') as full_text, judges -> 0 ->> 'name' as judge
       from public.judgments order by decision_date desc nulls last, id limit $1`,
    [n],
  );
  return rows;
}

async function stored(ids: string[]) {
  const { rows } = await pool.query<{ judgment_id: string; patterns_version: string; phrases: Record<string, [number, string]> }>(
    "select judgment_id::text, patterns_version, phrases from public.judgment_reasoning_phrases where judgment_id = any($1::uuid[])",
    [ids],
  );
  return new Map(rows.map((r) => [r.judgment_id, r]));
}

describe("fillPhraseCounts", () => {
  it("counts a slice without stored counts, in bounded batches, equal to the patterns' counts", async () => {
    const slice = await newest(20);
    const ids = slice.map((d) => d.id);
    await pool.query("delete from public.judgment_reasoning_phrases where judgment_id = any($1::uuid[])", [ids]);
    expect((await stored(ids)).size).toBe(0);

    // Two batches of ten: the newest twenty are the first pending ones.
    const out = await fillPhraseCounts(service, { batch: 10, maxBatches: 2 });
    expect(out.batches).toBe(2);
    expect(out.counted).toBe(20);

    const rows = await stored(ids);
    expect(rows.size).toBe(20);
    let phrases = 0;
    for (const d of slice) {
      const row = rows.get(d.id)!;
      expect(row.patterns_version).toBe(PATTERNS_VERSION);
      expect([d.id, row.phrases]).toEqual([d.id, countPhrases(d.full_text)]);
      phrases += Object.keys(row.phrases).length;
    }
    expect(phrases).toBeGreaterThan(0);
  });

  it("a changed text is counted again by the next pass", async () => {
    const [doc] = await newest(1);
    await fillPhraseCounts(service, { batch: 10, maxBatches: 1 });
    expect((await stored([doc.id])).size).toBe(1);
    const changed = `${doc.full_text} Sąd zważył, co następuje: wykładnia językowa przepisu.`;
    await pool.query("update public.judgments set full_text = $2 where id = $1", [doc.id, changed]);
    try {
      expect((await stored([doc.id])).size).toBe(0);
      await fillPhraseCounts(service, { batch: 10, maxBatches: 1 });
      expect((await stored([doc.id])).get(doc.id)?.phrases).toEqual(countPhrases(changed));
    } finally {
      await pool.query("update public.judgments set full_text = $2 where id = $1", [doc.id, doc.full_text]);
    }
    // Restoring the text dropped the row again; the filler puts back the original counts.
    await fillPhraseCounts(service, { batch: 10, maxBatches: 1 });
    expect((await stored([doc.id])).get(doc.id)?.phrases).toEqual(countPhrases(doc.full_text));
  });

  it("a judge's record then carries the stored counts, not the texts", async () => {
    const slice = (await newest(20)).filter((d) => d.judge);
    expect(slice.length).toBeGreaterThan(0);
    await fillPhraseCounts(service, { batch: 10, maxBatches: 2 });
    const judge = slice[0].judge!;
    const { rows } = await pool.query<{ r: { documents: { document_id: string; phrases?: unknown; text?: string }[] } }>(
      "select public.judge_record_phrases($1, $2, $3) as r",
      [judge, config().JUDGE_STYLE_MAX_TEXTS, PATTERNS_VERSION],
    );
    const doc = rows[0].r.documents.find((d) => d.document_id === slice[0].id)!;
    expect(doc).toBeDefined();
    expect(doc.text).toBeUndefined();
    expect(doc.phrases).toEqual(countPhrases(slice[0].full_text));
  });

  it("the pending reader is the service role's only", async () => {
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query("set local role authenticated");
      await expect(client.query("select * from public.judgment_reasoning_phrases_pending('x', 1)")).rejects.toThrow(/permission denied/);
    } finally {
      await client.query("rollback");
      client.release();
    }
  });
});
