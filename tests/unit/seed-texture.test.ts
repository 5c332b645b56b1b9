/**
 * The demo corpus's texture (supabase/seed/texture.ts, planted-citations.ts): varied language, judge-specific
 * reasoning, statute references and the planted citation network — each a known answer of the generated corpus.
 */
import { describe, expect, it } from "vitest";
import { scoreStyles } from "@/lib/analysis/reasoning-patterns";
import { citedIdentity, generateCore, DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, generateJudgment, type JudgmentRow } from "@/supabase/seed/generate";
import { CITERS_PER_LEADING, plantedCitationNetwork, rowMeta } from "@/supabase/seed/planted-citations";
import { PLANTED_JUDGE } from "@/supabase/seed/planted-lines";
import { ART_279_ACQUITTAL_INDEXES, ART_279_INDEXES, PLANTED_STATUTE, PLANTED_STATUTE_SEED } from "@/supabase/seed/planted-statutes";
import { templateCounts } from "@/supabase/seed/template-share";
import { citationKey, citationOf, judgeStyleMix } from "@/supabase/seed/texture";

// Generating hundreds of long judgments takes seconds on a busy 2-core machine; a harness limit, not a speed check.
const SLOW = { timeout: 180_000 };
const SEED = 7;
const SLICE: JudgmentRow[] = Array.from({ length: 600 }, (_, i) => generateJudgment(SEED, i));

describe("varied language", () => {
  it("no sentence template of the reasons occurs in more than 2 % of judgments (every 10th row of the default corpus)", SLOW, () => {
    const rows = function* () {
      for (let i = 0; i < DEFAULT_CORPUS_SIZE; i += 10) yield generateJudgment(DEFAULT_CORPUS_SEED, i).full_text;
    };
    const { judgments, counts } = templateCounts(rows());
    expect(judgments).toBe(Math.ceil(DEFAULT_CORPUS_SIZE / 10));
    const worst = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
    // The measure is not empty: thousands of templates were counted.
    expect(counts.size).toBeGreaterThan(10_000);
    for (const [template, n] of worst) expect(n / judgments, template).toBeLessThanOrEqual(0.02);
  });
});

describe("judge-specific writing", () => {
  const byJudge = new Map<string, JudgmentRow[]>();
  for (const r of SLICE) byJudge.set(r.judges[0].name, [...(byJudge.get(r.judges[0].name) ?? []), r]);
  const score = (rows: JudgmentRow[]) => scoreStyles(rows.map((r) => ({ document_id: r.id, text: r.full_text }))).styles;

  it("two demo judges with different mixes have different fingerprints, and different judges lead with different styles", () => {
    const judges = [...byJudge.entries()].filter(([name, rows]) => name !== PLANTED_JUDGE.name && rows.length >= 3);
    expect(judges.length).toBeGreaterThan(5);
    const primary = (name: string) => Object.entries(judgeStyleMix(name)).sort((a, b) => b[1] - a[1])[0][0];
    const [a, b] = [judges[0], judges.find(([n]) => primary(n) !== primary(judges[0][0]))!];
    const fa = score(a[1]);
    const fb = score(b[1]);
    expect(fa).not.toEqual(fb);
    // Not everyone is "analogical 100, others 0": at least three styles show up in each fingerprint.
    for (const f of [fa, fb]) expect(Object.values(f).filter((v) => v > 0).length).toBeGreaterThanOrEqual(3);
    // Across the slice's judges, more than one style leads.
    const leaders = new Set(judges.map(([, rows]) => Object.entries(score(rows)).sort((x, y) => y[1] - x[1])[0][0]));
    expect(leaders.size).toBeGreaterThan(1);
  });

  it("a judge's fingerprint follows the mix the generator gave them (known answers for three UK judges of the slice)", () => {
    const lead = (name: string) => Object.entries(score(byJudge.get(name) ?? [])).sort((x, y) => y[1] - x[1])[0][0];
    const primary = (name: string) => Object.entries(judgeStyleMix(name)).sort((a, b) => b[1] - a[1])[0][0];
    expect(["Lord Justice Ormerod", "Lord Justice Hawthorne", "Lord Justice Vyvyan"].map((n) => [n, primary(n), lead(n)])).toEqual([
      ["Lord Justice Ormerod", "deductive", "deductive"],
      ["Lord Justice Hawthorne", "policy", "policy"],
      ["Lord Justice Vyvyan", "textual", "textual"],
    ]);
  });

  it("the planted judge's profile stays the known answer: teleological 100", () => {
    const rows = SLICE.filter((r) => r.judges.some((j) => j.name === PLANTED_JUDGE.name));
    expect(rows.length).toBeGreaterThan(5);
    expect(score(rows).teleological).toBe(100);
    expect(Object.entries(judgeStyleMix(PLANTED_JUDGE.name)).filter(([, w]) => w > 0)).toEqual([["teleological", 1]]);
  });
});

describe("statute references", () => {
  it("the judgments applying art. 279 § 1 k.k. in the test slice are exactly the planted set", () => {
    expect(PLANTED_STATUTE_SEED).toBe(SEED);
    const mentioning = SLICE.map((r, i) => (r.full_text.includes(PLANTED_STATUTE) ? i : -1)).filter((i) => i >= 0);
    expect(mentioning).toEqual([...ART_279_INDEXES, ...ART_279_ACQUITTAL_INDEXES].sort((a, b) => a - b));
    const applying = SLICE.map((_, i) => i).filter((i) => JSON.stringify(generateCore(SEED, i).c.extraction.convict_offences ?? []).includes(PLANTED_STATUTE));
    expect(applying).toEqual([...ART_279_INDEXES]);
    for (const i of ART_279_ACQUITTAL_INDEXES) expect(SLICE[i].full_text).toContain(`uniewinnił oskarżon`);
  });

  it("PL texts cite art. 438 pkt 4 k.p.k. and art. 60 § 2 k.k.; UK texts cite statutes by section and Sentencing Council guidelines", () => {
    const text = SLICE.map((r) => r.full_text).join("\n");
    for (const needle of ["art. 438 pkt 4 k.p.k.", "art. 60 § 2 k.k.", "section 18 of the Offences Against the Person Act 1861", "s.9 Theft Act 1968", "Sentencing Council"]) {
      expect([needle, text.includes(needle)]).toEqual([needle, true]);
    }
  });
});

describe("citations between judgments (the planted network)", () => {
  const net = plantedCitationNetwork(SEED);
  const cites = (citing: number, cited: number) => SLICE[citing].full_text.includes(citationKey(citedIdentity(SEED, cited)));
  const citersOf = (cited: number) => SLICE.map((_, i) => i).filter((i) => i !== cited && cites(i, cited));

  it("each leading case is cited by exactly its planted citers (≥ 50), all decided later, by case number (PL) and neutral citation (UK)", () => {
    for (const j of ["PL", "UK"] as const) {
      const lead = net.leading[j];
      expect(lead.citedBy.length).toBe(CITERS_PER_LEADING);
      expect(citersOf(lead.index)).toEqual(lead.citedBy);
      for (const c of lead.citedBy) expect(rowMeta(SEED, c).date > rowMeta(SEED, lead.index).date).toBe(true);
    }
    expect(citationOf(citedIdentity(SEED, net.leading.PL.index))).toMatch(/^wyrok Sądu Apelacyjnego (w|we) .+ z dnia \d{1,2} \p{L}+ \d{4} r\., II AKa \d+\/\d{2}$/u);
    expect(citationOf(citedIdentity(SEED, net.leading.UK.index))).toMatch(/^R v \S+.* \[\d{4}\] EWCA Crim \d+$/);
  });

  it("the chain A ← B ← C ← D: each cites only the one before it, in date order", () => {
    const [a, b, c, d] = net.chain;
    expect(citersOf(a)).toEqual([b]);
    expect(citersOf(b)).toEqual([c]);
    expect(citersOf(c)).toEqual([d]);
    expect(citersOf(d)).toEqual([]);
    const dates = net.chain.map((i) => rowMeta(SEED, i).date.getTime());
    expect([...dates].sort((x, y) => x - y)).toEqual(dates);
  });

  it("the overruled line: followed three times, then departed from, and the later judgments apply the overruling one", () => {
    const o = net.overruled;
    expect(citersOf(o.overruled).sort((x, y) => x - y)).toEqual([...o.followers, o.overruling, ...o.later].sort((x, y) => x - y));
    expect(SLICE[o.overruling].full_text).toMatch(/nie podziela poglądu wyrażonego w wyroku .+ i odstępuje od niego/);
    expect(citersOf(o.overruling).sort((x, y) => x - y)).toEqual([...o.later].sort((x, y) => x - y));
    const dates = [o.overruled, ...o.followers, o.overruling, ...o.later].map((i) => rowMeta(SEED, i).date.getTime());
    expect([...dates].sort((x, y) => x - y)).toEqual(dates);
  });

  it("ordinary judgments cite earlier reported ones too, and never a later one", () => {
    const reported = SLICE.map((_, i) => i).filter((i) => i % 50 === 17 && !net.members.has(i));
    let pairs = 0;
    for (let i = 0; i < SLICE.length; i++) {
      if (net.members.has(i)) continue;
      for (const r of reported) {
        if (r === i || !cites(i, r)) continue;
        pairs++;
        expect([i, r, rowMeta(SEED, r).date < rowMeta(SEED, i).date]).toEqual([i, r, true]);
      }
    }
    expect(pairs).toBeGreaterThan(15);
  });
});
