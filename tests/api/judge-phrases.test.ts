/**
 * Stored reasoning-phrase counts (table judgment_reasoning_phrases): a judge profile
 * stores the counts of the judgments it had to scan, the stored counts are exactly what the shared patterns compute
 * from the texts, a profile served from stored counts equals one scored from the full texts, and a change of a
 * judgment's text drops its stored counts (recounted on the next profile).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";
import { PLANTED_JUDGE } from "@/supabase/seed/planted-lines";
import { config } from "@/lib/config";
import { scoreStyles } from "@/lib/analysis/reasoning-patterns";
import { countPhrases, PATTERNS_VERSION } from "@/lib/backend/analysis/judge-phrases";

const pool = adminPool();
afterAll(() => pool.end());
const enc = encodeURIComponent;

let user: Browser;
beforeAll(async () => {
  ({ browser: user } = await signedInBrowser());
});

/** Her newest JUDGE_STYLE_MAX_TEXTS judgments with their texts, in the profile's order (the texts-only judge_record). */
async function herTexts() {
  const { rows } = await pool.query<{ r: { documents: { document_id: string; case_number: string | null; text: string }[] } }>(
    "select public.judge_record($1, $2) as r",
    [PLANTED_JUDGE.name, config().JUDGE_STYLE_MAX_TEXTS],
  );
  return rows[0].r.documents;
}

async function storedRows(ids: string[]) {
  const { rows } = await pool.query<{ judgment_id: string; patterns_version: string; phrases: Record<string, [number, string]> }>(
    "select judgment_id::text, patterns_version, phrases from public.judgment_reasoning_phrases where judgment_id = any($1::uuid[])",
    [ids],
  );
  return new Map(rows.map((r) => [r.judgment_id, r]));
}

describe("stored reasoning-phrase counts", () => {
  it("a profile stores each scanned judgment's counts, equal to the patterns' counts of its text", async () => {
    const docs = await herTexts();
    expect(docs.length).toBeGreaterThan(0);
    const res = await user.get(`/api/judge-fingerprint/profile/${enc(PLANTED_JUDGE.name)}`);
    expect(res.status).toBe(200);
    const stored = await storedRows(docs.map((d) => d.document_id));
    expect(stored.size).toBe(docs.length);
    let matched = 0;
    for (const d of docs) {
      const row = stored.get(d.document_id)!;
      expect(row.patterns_version).toBe(PATTERNS_VERSION);
      expect([d.document_id, row.phrases]).toEqual([d.document_id, countPhrases(d.text)]);
      matched += Object.keys(row.phrases).length;
    }
    // The planted judge's texts carry the planted phrases: the comparison above was not over empty records.
    expect(matched).toBeGreaterThan(0);
  });

  it("a profile from stored counts equals the scoring of the full texts", async () => {
    await user.get(`/api/judge-fingerprint/profile/${enc(PLANTED_JUDGE.name)}`); // fills whatever is missing
    const p = await (await user.get(`/api/judge-fingerprint/profile/${enc(PLANTED_JUDGE.name)}`)).json();
    const fromTexts = scoreStyles(await herTexts());
    expect(p.scored_judgments).toBe(fromTexts.documents);
    expect(p.style_counts).toEqual(fromTexts.counts);
    // Each style's phrases are the texts' counts (the scores are those, measured against the court level's baseline).
    expect(Object.fromEntries(Object.entries(p.styles as Record<string, { count: number }>).map(([k, v]) => [k, v.count]))).toEqual(fromTexts.counts);
    expect(p.evidence).toEqual(fromTexts.evidence);
  });

  it("changing a judgment's text drops its stored counts; other updates keep them", async () => {
    // A judgment no judge test profiles (so no concurrent profile stores it again mid-test), its counts stored directly.
    const { rows } = await pool.query<{ id: string; full_text: string }>(
      "select id::text, full_text from public.judgments where not (judges @> $1::jsonb) and full_text <> '' order by id desc limit 1",
      [JSON.stringify([{ name: PLANTED_JUDGE.name }])],
    );
    const doc = rows[0];
    const store = () =>
      pool.query(
        "insert into public.judgment_reasoning_phrases (judgment_id, patterns_version, phrases) values ($1, $2, $3) on conflict (judgment_id) do update set phrases = excluded.phrases",
        [doc.id, PATTERNS_VERSION, JSON.stringify(countPhrases(doc.full_text))],
      );
    await store();
    await pool.query("update public.judgments set title = title where id = $1", [doc.id]);
    expect((await storedRows([doc.id])).get(doc.id)?.phrases).toEqual(countPhrases(doc.full_text));
    // A change and its undo: the text ends as it was, the stored counts are gone.
    await pool.query("update public.judgments set full_text = full_text || ' ' where id = $1", [doc.id]);
    await pool.query("update public.judgments set full_text = $2 where id = $1", [doc.id, doc.full_text]);
    expect((await storedRows([doc.id])).size).toBe(0);
  });

  it("callers read the table but cannot write it (counts are evidence)", async () => {
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query("set local role authenticated");
      await expect(client.query("select count(*) from public.judgment_reasoning_phrases")).resolves.toBeTruthy();
      await expect(
        client.query("update public.judgment_reasoning_phrases set phrases = '{}'::jsonb"),
      ).rejects.toThrow(/permission denied/);
      await client.query("rollback");
      await client.query("begin");
      await client.query("set local role anon");
      await expect(client.query("select 1 from public.judgment_reasoning_phrases limit 1")).rejects.toThrow(/permission denied/);
    } finally {
      await client.query("rollback");
      client.release();
    }
  });
});
