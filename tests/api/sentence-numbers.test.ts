import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/backend/api-keys";
import { generateJudgment } from "@/supabase/seed/generate";
import { adminPool } from "../helpers/stack";
import { Browser, signedInBrowser } from "../helpers/http";
import { serviceClient } from "../helpers/supabase";
import { truthCase } from "../../bench/lib/extraction-truth";
import { demoTruth } from "../../server/cli/gen-sentence-quality-doc";

/**
 * The typed sentence numbers through HTTP: "Polish appeals where the defendant appealed and immediate custody was over
 * 60 months" as a structured filter on the web route and the reference API, answering the planted count; the numeric
 * histogram; refusals of values outside the registry.
 */
const pool = adminPool();
const WEB_FILTER = "/api/extractions/base-schema/filter";
const V1_FILTER = "/api/v1/extractions/base-schema/filter";
/** The test stack's corpus (tests/helpers/test-stack.ts seeds 600 judgments with seed 7). */
const CORPUS = { size: 600, seed: 7 };

const ACCEPTANCE = {
  jurisdiction: ["PL"],
  appellant: ["offender"],
  sentence_kind: ["custody"],
  sentence_custody_months: { min: 61 },
};

let key: { id: string; key: string };
let user: Browser;
let planted: Set<string>;
let seeded: Set<string>;

beforeAll(async () => {
  // Rebuilding the plan takes seconds of CPU: done before any HTTP socket is open, so no keep-alive socket goes stale.
  planted = plantedIds();
  seeded = new Set(Array.from({ length: CORPUS.size }, (_, i) => generateJudgment(CORPUS.seed, i).id));
  key = await createApiKey(serviceClient(), { name: `sentence numbers ${Date.now()}` });
  user = (await signedInBrowser()).browser;
});

afterAll(async () => {
  await revokeApiKey(serviceClient(), key.id).catch(() => undefined);
  await pool.end();
});

/** The seeded judgments the acceptance question should find, from the generator's plan (not from the reader). */
function plantedIds(): Set<string> {
  const ids = new Set<string>();
  for (let i = 0; i < CORPUS.size; i++) {
    const row = generateJudgment(CORPUS.seed, i);
    if (row.base_extraction_status !== "completed" || row.jurisdiction !== "PL" || row.base_appellant !== "offender") continue;
    const t = truthCase(i, CORPUS.seed);
    const truth = demoTruth("PL", t.plan);
    // Immediate custody: a custodial sentence that is not suspended, over 60 months.
    if (truth.sentence_kind === "custody" && typeof truth.sentence_custody_months === "number" && truth.sentence_custody_months > 60) ids.add(row.id);
  }
  return ids;
}

interface Page {
  results: { id: string; jurisdiction: string }[];
  total: number;
}

describe("immediate custody over 60 months in Polish appeals by the defendant", () => {
  it("is a filter on the web route answering the planted judgments, and the same on /api/v1", async () => {
    expect(planted.size).toBeGreaterThan(5);
    const res = await user.post(WEB_FILTER, { filters: ACCEPTANCE, limit: 100 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Page;
    expect(body.total).toBeLessThanOrEqual(100); // one page holds the whole answer on the test corpus
    // Other suites may add judgments; among the seeded ones the answer is exactly the planted set.
    expect(new Set(body.results.map((r) => r.id).filter((id) => seeded.has(id)))).toEqual(planted);
    expect(body.total).toBeGreaterThanOrEqual(planted.size);
    expect(body.results.every((r) => r.jurisdiction === "PL")).toBe(true);

    const v1 = await new Browser().post(V1_FILTER, { filters: ACCEPTANCE, limit: 100 }, { "x-api-key": key.key });
    expect(v1.status).toBe(200);
    expect(await v1.json()).toEqual(body);
  });

  it("the bounds are inclusive and a bare number is equality, like every numeric range", async () => {
    const count = async (months: unknown) =>
      ((await (await user.post(WEB_FILTER, { filters: { jurisdiction: ["PL"], sentence_custody_months: months }, limit: 1 })).json()) as Page).total;
    const over60 = await count({ min: 61 });
    expect(over60).toBeGreaterThan(0);
    const from60 = await count({ min: 60 });
    const exactly60 = await count(60);
    expect(from60).toBe(over60 + exactly60);
    const { rows } = await pool.query<{ n: string }>(
      "select count(*) as n from public.judgments where base_extraction_status = 'completed' and jurisdiction = 'PL' and base_sentence_custody_months >= 60",
    );
    expect(from60).toBe(Number(rows[0].n));
  });

  it("refuses a kind outside the registry and a range of the wrong shape (422 FILTER_INVALID)", async () => {
    for (const filters of [{ sentence_kind: ["prison"] }, { sentence_custody_months: { min: "five years" } }, { sentence_suspended: "yes" }]) {
      const res = await user.post(WEB_FILTER, { filters });
      expect(res.status, JSON.stringify(filters)).toBe(422);
      expect(((await res.json()) as { detail: { code: string } }).detail.code).toBe("FILTER_INVALID");
    }
  });
});

describe("sentence numbers are aggregable", () => {
  it("custody months come as integer-width buckets; the change on appeal has negative values", async () => {
    const res = await user.post("/api/extractions/base-schema/aggregate", {
      filters: { jurisdiction: ["PL"] },
      fields: ["sentence_custody_months", "sentence_change_months", "sentence_kind", "sentence_suspended"],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      fields: Record<string, { kind: string; buckets?: { lo: number; hi: number; count: number }[]; min?: number; values?: { value: string; count: number }[] }>;
    };
    const custody = body.fields.sentence_custody_months;
    expect(custody.kind).toBe("numeric");
    expect(custody.buckets!.length).toBeGreaterThan(1);
    for (const b of custody.buckets!) expect(Number.isInteger(b.lo) && Number.isInteger(b.hi)).toBe(true);
    expect(body.fields.sentence_change_months.min).toBeLessThan(0);
    expect(body.fields.sentence_kind.values!.map((v) => v.value)).toEqual(expect.arrayContaining(["custody", "suspended"]));
  });
});
