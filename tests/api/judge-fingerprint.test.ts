/**
 * Judge fingerprint routes over real HTTP, and the known answers planted in the demo corpus
 * (supabase/seed/planted-lines.ts): the planted judge is found by search, stands out from her court level on purpose
 * arguments (a z-score against the baseline the answer names) with evidence from her own judgments, while a typical
 * judge of the same level stays within the usual band; a judge with too little text is "not enough text" (null
 * scores with the reason), never 0 or 100; her outcome counts are those of her judgments' extracted base field;
 * discovery finds the planted reasoning line. Plus the 422s and the judgeCompare quota's 429.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";
import { generateJudgment } from "@/supabase/seed/generate";
import { JUDGE_INDEXES, LINE_INDEXES, PLANTED_JUDGE } from "@/supabase/seed/planted-lines";
import { judgeStyleMix } from "@/supabase/seed/texture";
import { config } from "@/lib/config";
import { startInOneWindow, windowTestTimeout } from "../helpers/rate-window";

const pool = adminPool();
afterAll(() => pool.end());

/** The test stack's corpus: the first 600 judgments of seed 7 (tests/helpers/test-stack.ts). */
const SEED = 7;
const judgeRows = JUDGE_INDEXES.map((i) => generateJudgment(SEED, i)).filter((r) => r.judges.some((j) => j.name === PLANTED_JUDGE.name));
const lineRows = LINE_INDEXES.map((i) => generateJudgment(SEED, i)).filter((r) => r.jurisdiction === "PL" && r.base_extraction_status === "completed");

/** |z| a distinctive style reaches, and the band a typical judge's planted style stays in. */
const DISTINCT_Z = 3;
const TYPICAL_BAND = 2;

/** Judges of the test slice: judgments per name, jurisdiction, and whether they ever sat with the planted judge. */
const slice = Array.from({ length: 600 }, (_, i) => generateJudgment(SEED, i));
const sitting = new Map<string, { n: number; jurisdiction: string; withPlanted: boolean }>();
for (const r of slice) {
  const withPlanted = r.judges.some((j) => j.name === PLANTED_JUDGE.name);
  for (const j of r.judges) {
    const e = sitting.get(j.name) ?? { n: 0, jurisdiction: r.jurisdiction, withPlanted: false };
    e.n++;
    e.withPlanted ||= withPlanted;
    sitting.set(j.name, e);
  }
}
/**
 * A typical judge of her court level: Polish, enough judgments for a score, never on her panels (her purpose phrases
 * would count for them too), and with purpose only at the background weight of the seed's style mix.
 */
const typical = [...sitting]
  .filter(([name, e]) => name !== PLANTED_JUDGE.name && e.jurisdiction === "PL" && e.n >= config().JUDGE_STYLE_MIN_JUDGMENTS && !e.withPlanted)
  .filter(([name]) => judgeStyleMix(name).teleological < 0.1)
  .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))[0]?.[0];
/** A judge of one judgment: below the minimum, so "not enough text". */
const thin = [...sitting].find(([name, e]) => e.n === 1 && e.jurisdiction === "PL" && name !== PLANTED_JUDGE.name && !e.withPlanted)?.[0];

let user: Browser;

/**
 * A profile once its court level is fully counted: each profile counts the level's uncounted judgments for a bounded
 * time (JUDGE_BASELINE_FILL_MS) and says how many are still pending, so asking again finishes the count.
 */
async function countedProfile(name: string) {
  for (let i = 0; i < 40; i++) {
    const res = await user.get(`/api/judge-fingerprint/profile/${enc(name)}`);
    expect(res.status).toBe(200);
    const p = await res.json();
    if (p.baseline.pending === 0) return p;
  }
  throw new Error(`the court level of ${name} was never fully counted`);
}

/** Her judgments as stored: the test slice's, plus the e2e corpus's (another seed) when the journeys ran on this stack. */
let stored: { id: string; decision_date: string }[] = [];
beforeAll(async () => {
  ({ browser: user } = await signedInBrowser());
  stored = (
    await pool.query<{ id: string; decision_date: string }>("select id::text, decision_date::text from public.judgments where judges @> $1::jsonb order by id", [
      JSON.stringify([{ name: PLANTED_JUDGE.name }]),
    ])
  ).rows;
});

const enc = encodeURIComponent;

describe("judge fingerprint", () => {
  it("needs a session", async () => {
    const anon = new Browser();
    for (const path of ["/api/judge-fingerprint/search?q=ab", `/api/judge-fingerprint/profile/${enc(PLANTED_JUDGE.name)}`, "/api/judge-fingerprint/compare?judges=a,b"]) {
      expect([path, (await anon.get(path)).status]).toEqual([path, 401]);
    }
  });

  it("search: q of at least 2 characters, accent- and case-insensitive", async () => {
    expect((await user.get("/api/judge-fingerprint/search?q=a")).status).toBe(422);
    expect((await user.get("/api/judge-fingerprint/search")).status).toBe(422);
    expect((await user.get("/api/judge-fingerprint/search?q=ab&limit=101")).status).toBe(422);
    for (const q of ["kropiwnicka", "ZDZISLAWA KROP", "Zdzisława"]) {
      const body = await (await user.get(`/api/judge-fingerprint/search?q=${enc(q)}`)).json();
      expect([q, body.judges[0]]).toEqual([q, { name: PLANTED_JUDGE.name, jurisdiction: "PL", judgments: stored.length }]);
    }
  });

  it("the planted judge's profile: purpose arguments far above her court level's baseline, with phrases and her own judgments as evidence", async () => {
    expect(judgeRows.length).toBeGreaterThanOrEqual(5);
    // Every planted judgment of the test slice is stored under her name (and nothing else names her but plants).
    expect(stored.map((r) => r.id)).toEqual(expect.arrayContaining(judgeRows.map((r) => r.id)));
    const p = await countedProfile("zdzislawa KROPIWNICKA");
    expect(p).toMatchObject({ name: PLANTED_JUDGE.name, jurisdiction: "PL", judgments: stored.length, mode: "no-model" });
    expect(p.roles.presiding).toBe(stored.length);
    const dates = stored.map((r) => r.decision_date).sort();
    expect(p.years).toEqual({ first: Number(dates[0].slice(0, 4)), last: Number(dates.at(-1)!.slice(0, 4)) });
    expect(p.courts.reduce((a: number, c: { count: number }) => a + c.count, 0)).toBe(stored.length);
    // The baseline the scores are measured against: the other judgments of her court level, all counted (the
    // profile counted and stored whatever the level was missing), at least the configured minimum.
    const c = config();
    expect(p.baseline).toMatchObject({
      jurisdiction: "PL",
      court_level: "Sąd Apelacyjny",
      pending: 0,
      sufficient: true,
      minimums: { judge_judgments: c.JUDGE_STYLE_MIN_JUDGMENTS, judge_phrases: c.JUDGE_STYLE_MIN_PHRASES, baseline_judgments: c.JUDGE_BASELINE_MIN_JUDGMENTS },
    });
    const { rows: level } = await pool.query<{ n: number }>(
      "select count(*)::int as n from public.judgments where jurisdiction = 'PL' and court_level = 'Sąd Apelacyjny' and not (judges @> $1::jsonb)",
      [JSON.stringify([{ name: PLANTED_JUDGE.name }])],
    );
    expect(p.baseline.judgments).toBe(level[0].n);
    expect(p.baseline.judges).toBeGreaterThan(10);
    for (const s of ["textual", "deductive", "analogical", "policy", "teleological"]) {
      expect(p.baseline.rates[s].mean).toBeGreaterThanOrEqual(0);
      expect(p.baseline.rates[s].sd).toBeGreaterThanOrEqual(0);
    }
    expect(p.styles_reason).toBeNull();
    expect(p.styles.teleological.reason).toBeNull();
    expect(p.styles.teleological.rate).toBeCloseTo(p.style_counts.teleological / p.scored_judgments, 2);
    expect(p.styles.teleological.z).toBeGreaterThanOrEqual(DISTINCT_Z);
    // Purpose is her most distinctive style: every other style scores lower.
    for (const s of ["textual", "deductive", "analogical", "policy"]) expect(p.styles[s].z).toBeLessThan(p.styles.teleological.z);
    const tele = p.evidence.filter((e: { style: string }) => e.style === "teleological");
    const phrases = tele.map((e: { pattern_id: string }) => e.pattern_id);
    for (const id of ["pl-teleological-ratio-legis", "pl-teleological-cel-przepisu", "pl-teleological-wykladnia-celowosciowa"]) expect(phrases).toContain(id);
    const mine = new Set(stored.map((r) => r.id));
    for (const e of tele) {
      expect(e.count).toBeGreaterThan(0);
      expect(e.examples.length).toBeGreaterThan(0);
      for (const x of e.examples) {
        expect(mine.has(x.document_id)).toBe(true);
        expect(x.snippet.length).toBeGreaterThan(20);
      }
    }
    // Outcomes: the aggregate over her completed judgments equals a plain count of their extracted field.
    const { rows } = await pool.query<{ value: string; count: number }>(
      `select v as value, count(*)::int as count from public.judgments j, unnest(j.base_appeal_outcome) v
        where j.base_extraction_status = 'completed' and j.judges @> $1::jsonb and j.base_appeal_court_judges_names ilike $2
        group by v order by 2 desc, 1`,
      [JSON.stringify([{ name: PLANTED_JUDGE.name }]), `%${PLANTED_JUDGE.name}%`],
    );
    expect(p.outcomes.appeal_outcome).toEqual(rows);
    expect(Object.keys(p.sentences).sort()).toEqual(["sentence_serve", "sentences_received", "what_ancilliary_orders"]);
  });

  it("a typical judge of the same court level stays within the band on purpose arguments: the planted judge is distinguishable", async () => {
    expect(typical).toBeDefined();
    const planted = await countedProfile(PLANTED_JUDGE.name);
    const other = await countedProfile(typical!);
    expect(other).toMatchObject({ name: typical, jurisdiction: "PL", styles_reason: null });
    expect(other.baseline).toMatchObject({ jurisdiction: "PL", court_level: planted.baseline.court_level });
    expect(Math.abs(other.styles.teleological.z)).toBeLessThan(TYPICAL_BAND);
    expect(planted.styles.teleological.z - other.styles.teleological.z).toBeGreaterThanOrEqual(DISTINCT_Z);
    // Case law is cited by every judgment: nobody's analogical score is the degenerate "100" of a share.
    for (const p of [planted, other]) expect(Math.abs(p.styles.analogical.z)).toBeLessThan(DISTINCT_Z);
  });

  it("a judge with too little text: null scores with the reason, never 0 or 100", async () => {
    expect(thin).toBeDefined();
    const p = await (await user.get(`/api/judge-fingerprint/profile/${enc(thin!)}`)).json();
    expect(p.judgments).toBeLessThan(config().JUDGE_STYLE_MIN_JUDGMENTS);
    expect(p.styles_reason).toBe("few_judgments");
    for (const s of ["textual", "deductive", "analogical", "policy", "teleological"]) {
      expect(p.styles[s]).toMatchObject({ z: null, reason: "few_judgments" });
      expect(p.styles[s].count).toBe(p.style_counts[s]);
    }
    // The baseline is still named, so the page can say what a score would be measured against.
    expect(p.baseline.judgments).toBeGreaterThan(0);
  });

  it("unknown judges are 404; compare takes 2-3 names, else 422", async () => {
    expect((await user.get(`/api/judge-fingerprint/profile/${enc("Nobody Nowhere-Known")}`)).status).toBe(404);
    for (const judges of ["", "One", "A,B,C,D", "Same,Same", " , "]) {
      expect([judges, (await user.get(`/api/judge-fingerprint/compare?judges=${enc(judges)}`)).status]).toEqual([judges, 422]);
    }
    const other = generateJudgment(SEED, 0).judges[0].name;
    const res = await user.get(`/api/judge-fingerprint/compare?judges=${enc(`${PLANTED_JUDGE.name},${other}`)}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.judges.map((j: { name: string }) => j.name)).toEqual([PLANTED_JUDGE.name, other]);
    // Each side carries the baseline it is measured against, and "not enough text" where that applies.
    for (const j of body.judges) {
      expect(j.baseline).toMatchObject({ method: expect.any(String), court_level: expect.any(String), judgments: expect.any(Number) });
      expect(j.styles.teleological).toHaveProperty("z");
      expect(j.styles.teleological).toHaveProperty("reason");
    }
    expect(body.judges[0].styles.teleological.z).toBeGreaterThanOrEqual(DISTINCT_Z);
    const withThin = await (await user.get(`/api/judge-fingerprint/compare?judges=${enc(`${PLANTED_JUDGE.name},${thin}`)}`)).json();
    expect(withThin.judges[1]).toMatchObject({ name: thin, styles_reason: "few_judgments", styles: { teleological: { z: null, reason: "few_judgments" } } });
  });

  it(`compare has an hourly quota (judgeCompare): the next call past it is the reference 429 with Retry-After`, async () => {
    const { browser } = await signedInBrowser();
    const limit = config().QUOTA_JUDGE_COMPARE_PER_HOUR;
    await startInOneWindow(3600, 60);
    // Names nobody has: each call counts against the quota and stops at the first 404, so the loop is cheap.
    for (let i = 0; i < limit; i++) expect((await browser.get("/api/judge-fingerprint/compare?judges=Nobody%20A,Nobody%20B")).status).toBe(404);
    const res = await browser.get("/api/judge-fingerprint/compare?judges=Nobody%20A,Nobody%20B");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ error: "RateLimitExceeded", status_code: 429 });
    // Other judge routes are not under that quota.
    expect((await browser.get("/api/judge-fingerprint/search?q=ab")).status).toBe(200);
  }, windowTestTimeout(60));
});

describe("reasoning-line discovery finds the planted line", () => {
  it("one candidate holds every planted judgment of the sample, and little else", async () => {
    const res = await user.post("/api/reasoning-lines/discover", { sample_size: 500, num_clusters: 8, seed: 42 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ mode: "no-model", params: { sample_size: 500, num_clusters: 8, seed: 42 } });
    // The planted line's judgments as stored (the test slice's, and the e2e corpus's when the journeys ran here).
    const { rows } = await pool.query<{ id: string }>("select id::text from public.judgments where keywords @> $1 and base_extraction_status = 'completed'", [["kryptowaluta"]]);
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(lineRows.map((r) => r.id)));
    const planted = new Set(rows.map((r) => r.id));
    const members = (c: { members: { judgment_id: string }[] }) => c.members.map((m) => m.judgment_id);
    const sampled = body.candidates.flatMap(members).filter((id: string) => planted.has(id));
    expect(sampled.length).toBeGreaterThanOrEqual(8);
    const best = [...body.candidates].sort((a, b) => members(b).filter((id: string) => planted.has(id)).length - members(a).filter((id: string) => planted.has(id)).length)[0];
    const hits = members(best).filter((id: string) => planted.has(id)).length;
    expect(hits).toBe(sampled.length);
    expect(hits / best.size).toBeGreaterThanOrEqual(0.8);
    // Its evidence: the shared keywords and a label from the planted vocabulary; members by date; edges inside.
    expect(best.shared_keywords.map((k: { value: string }) => k.value)).toContain("kryptowaluta");
    expect(best.label).toMatch(/krypto|bitcoin|portfel|klucz/i);
    const dates = best.members.map((m: { decision_date: string }) => m.decision_date);
    expect([...dates].sort()).toEqual(dates);
    expect(best.edges.length).toBeGreaterThan(0);
    // Same request, same answer (seeded sample and k-means).
    const again = await (await user.post("/api/reasoning-lines/discover", { sample_size: 500, num_clusters: 8, seed: 42 })).json();
    expect(again.candidates.map(members)).toEqual(body.candidates.map(members));
  });
});
