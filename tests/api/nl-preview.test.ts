import { beforeAll, describe, expect, it } from "vitest";
import { generateJudgment } from "@/supabase/seed/generate";
import { nlFields } from "@/lib/llm/nl-filter-schema";
import { Browser, signedInBrowser } from "../helpers/http";
import { truthCase } from "../../bench/lib/extraction-truth";
import { demoTruth } from "../../server/cli/gen-sentence-quality-doc";

/**
 * The NL box end to end without a model: the acceptance question in English and Polish becomes the structured filter
 * of tests/api/sentence-numbers.test.ts and answers the planted judgments; the count preview
 * (POST /api/extractions/base-schema/nl-filter/preview) counts exactly what the filter route counts, and a proposal
 * that matches nothing is explained chip by chip (the count with each chip dropped).
 */
const NL = "/api/extractions/base-schema/nl-filter";
const PREVIEW = "/api/extractions/base-schema/nl-filter/preview";
const FILTER = "/api/extractions/base-schema/filter";
/** The test stack's corpus (tests/helpers/test-stack.ts seeds 600 judgments with seed 7). */
const CORPUS = { size: 600, seed: 7 };
/** A word no seeded judgment contains: the text chip that empties any cohort. */
const NONSENSE = "qzxwvkjunkword";

const ACCEPTANCE = { jurisdiction: ["PL"], appellant: ["offender"], sentence_kind: ["custody"], sentence_custody_months: { min: 61 } };

let user: Browser;
let planted: Set<string>;
let seeded: Set<string>;

beforeAll(async () => {
  // The plan is rebuilt before any HTTP socket is open (seconds of CPU), as in sentence-numbers.test.ts.
  planted = new Set();
  seeded = new Set();
  for (let i = 0; i < CORPUS.size; i++) {
    const row = generateJudgment(CORPUS.seed, i);
    seeded.add(row.id);
    if (row.base_extraction_status !== "completed" || row.jurisdiction !== "PL" || row.base_appellant !== "offender") continue;
    const truth = demoTruth("PL", truthCase(i, CORPUS.seed).plan);
    if (truth.sentence_kind === "custody" && typeof truth.sentence_custody_months === "number" && truth.sentence_custody_months > 60) planted.add(row.id);
  }
  user = (await signedInBrowser()).browser;
});

interface Preview {
  total: number;
  without: { chip: string; total: number }[] | null;
}

async function preview(body: unknown): Promise<Preview> {
  const res = await user.post(PREVIEW, body);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return (await res.json()) as Preview;
}

async function filterTotal(filters: Record<string, unknown>, textQuery?: string): Promise<number> {
  const res = await user.post(FILTER, { filters, ...(textQuery ? { text_query: textQuery } : {}), limit: 1 });
  expect(res.status).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

describe("the acceptance question through the NL box (rules mode)", () => {
  it.each([
    "Polish appeals where the defendant appealed and immediate custody was over 60 months",
    "polskie apelacje oskarżonego, kara bezwzględnego pozbawienia wolności powyżej 5 lat",
  ])("%s → the structured filter, answering the planted judgments; the preview counts the same", async (query) => {
    const res = await user.post(NL, { query });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { filters: Record<string, unknown>; text_query: string | null; mode: string };
    expect(body).toEqual({ filters: ACCEPTANCE, text_query: null, mode: "rules" });

    expect(planted.size).toBeGreaterThan(5);
    const page = await user.post(FILTER, { filters: body.filters, limit: 100 });
    const results = ((await page.json()) as { results: { id: string }[] }).results;
    // Other suites may add judgments; among the seeded ones the answer is exactly the planted set.
    expect(new Set(results.map((r) => r.id).filter((id) => seeded.has(id)))).toEqual(planted);

    const counted = await preview({ filters: body.filters });
    expect(counted).toEqual({ total: await filterTotal(body.filters), without: null });
    expect(counted.total).toBeGreaterThanOrEqual(planted.size);
  });
});

describe("count preview", () => {
  it("counts what the filter route counts, with and without a text query", async () => {
    for (const [filters, text] of [
      [{}, undefined],
      [{ jurisdiction: ["UK"] }, undefined],
      [{ jurisdiction: ["PL"], sentence_suspended: true }, undefined],
      [{ decision_date: { from: "2015-01-01" } }, "robbery"],
    ] as [Record<string, unknown>, string | undefined][]) {
      const expected = await filterTotal(filters, text);
      expect(expected, JSON.stringify(filters)).toBeGreaterThan(0);
      expect(await preview({ filters, ...(text ? { text_query: text } : {}) })).toEqual({ total: expected, without: null });
    }
  });

  it("with 0 results names the chip that emptied it: the count with each chip dropped", async () => {
    const filters = { jurisdiction: ["UK"], decision_date: { from: "2015-01-01" } };
    const out = await preview({ filters, text_query: NONSENSE });
    expect(out.total).toBe(0);
    // Dropping the text chip brings back the cohort of the other chips; dropping any other chip leaves the text, still 0.
    expect(out.without).toEqual([
      { chip: "jurisdiction", total: 0 },
      { chip: "decision_date", total: 0 },
      { chip: "text_query", total: await filterTotal(filters) },
    ]);
    expect(out.without![2].total).toBeGreaterThan(0);
  });

  it("a filter chip that empties the cohort is named the same way (contradicting chips: each is the culprit)", async () => {
    // Immediate custody and a suspended sentence exclude each other in the seeded data.
    const filters = { jurisdiction: ["PL"], sentence_kind: ["custody"], sentence_suspended: true };
    const out = await preview({ filters });
    expect(out.total).toBe(0);
    const without = new Map(out.without!.map((w) => [w.chip, w.total]));
    expect([...without.keys()]).toEqual(["jurisdiction", "sentence_kind", "sentence_suspended"]);
    expect(without.get("jurisdiction")).toBe(0);
    expect(without.get("sentence_kind")).toBe(await filterTotal({ jurisdiction: ["PL"], sentence_suspended: true }));
    expect(without.get("sentence_suspended")).toBe(await filterTotal({ jurisdiction: ["PL"], sentence_kind: ["custody"] }));
    expect(without.get("sentence_kind")).toBeGreaterThan(0);
    expect(without.get("sentence_suspended")).toBeGreaterThan(0);
  });

  it("the user trial's example: the text chip that empties it is named, and only content words are in it", async () => {
    const res = await user.post(NL, { query: "UK appeals since 2015 where the offender was intoxicated" });
    const body = (await res.json()) as { filters: Record<string, unknown>; text_query: string | null };
    // "appeals", "since", "where", "the", "offender", "was" are not content; the year and the country are filters.
    expect(body).toMatchObject({ filters: { jurisdiction: ["UK"], decision_date: { from: "2015-01-01" } }, text_query: "intoxicated" });
    const out = await preview({ filters: body.filters, text_query: body.text_query });
    expect(out.total).toBe(await filterTotal(body.filters, body.text_query!));
    if (out.total === 0) expect(out.without).toContainEqual({ chip: "text_query", total: await filterTotal(body.filters) });
    else expect(out.without).toBeNull();
  });

  it("does not explain past 12 chips (each costs a count): the total only", async () => {
    const numeric = nlFields().filter((f) => f.control === "numeric_range").slice(0, 13);
    expect(numeric.length).toBe(13);
    // A bound no value reaches: the cohort is empty whatever else.
    const filters = Object.fromEntries(numeric.map((f) => [f.key, { min: 1e9 }]));
    expect(await preview({ filters })).toEqual({ total: 0, without: null });
  });

  it("refuses without a session (401) and a bad body (422) before counting", async () => {
    const anon = await new Browser().post(PREVIEW, { filters: {} });
    expect(anon.status).toBe(401);
    for (const [body, code] of [
      [{ filters: { sentence_kind: ["prison"] } }, "FILTER_INVALID"],
      [{ filters: { collection_ids: ["00000000-0000-4000-8000-000000000000"] } }, "COLLECTION_IDS_NOT_ALLOWED"],
      [{ filters: {}, extra: 1 }, "VALIDATION_ERROR"],
      [{ filters: {}, text_query: "x".repeat(1001) }, "VALIDATION_ERROR"],
    ] as [unknown, string][]) {
      const res = await user.post(PREVIEW, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(((await res.json()) as { detail: { code: string } }).detail.code).toBe(code);
    }
  });
});
