/**
 * Citations between judgments in the demo corpus and the planted citation network (known answers for the citator).
 *
 * Later judgments cite earlier ones as the sources do: PL by court, date and case number ("wyrok Sądu Apelacyjnego
 * w Krakowie z dnia 5 marca 2015 r., II AKa 12/15"), UK by case name and neutral citation ("R v Surname [2013] EWCA
 * Crim 710"). "Later" is by decision date, never by index (dates are drawn per row).
 *
 * The planted network lives in the first 600 rows (the test slice) and is a pure function of the seed, computed
 * from each row's first draws (jurisdiction and decision date) without generating any text:
 *   - a leading case per jurisdiction (the eligible row with the earliest date), cited by CITERS_PER_LEADING later
 *     rows of its jurisdiction (and, beyond row 600, by about one row in twelve of its jurisdiction);
 *   - a chain A ← B ← C ← D (UK): B cites A, C cites B, D cites C, dates increasing;
 *   - an overruled line (PL): `overruled` is followed by three later rows, then `overruling` departs from it, and
 *     two later rows cite the overruling judgment and say the earlier view was abandoned.
 * Within the 600-row slice no other row cites a network member, so every count below is exact there:
 *
 *   import { plantedCitationNetwork } from "@/supabase/seed/planted-citations";
 *   const net = plantedCitationNetwork(7);
 *   net.leading.PL.citedBy   // indexes of the rows that cite the PL leading case (≥ 50)
 *   net.chain                // [A, B, C, D] indexes
 *   net.citation(net.chain[0]) // the string B uses to cite A
 *
 * Rows outside the network cite 0-2 "reported" rows (index ≡ 17 mod 50, not in the network) with earlier dates.
 */
import { judgmentId } from "./ids";
import { KNOWN_ANSWERS } from "./known-answers";
import { JUDGE_INDEXES, LINE_INDEXES } from "./planted-lines";
import { Rng } from "@/lib/analysis/prng";

/** Rows the network is planted in (the test stack seeds this many). */
export const NETWORK_SLICE = 600;
export const CITERS_PER_LEADING = 60;
/** Rows whose index ≡ REPORTED_REMAINDER (mod REPORTED_EVERY) are the "reported" cases other rows may cite. */
export const REPORTED_EVERY = 50;
export const REPORTED_REMAINDER = 17;

export interface RowMeta {
  jurisdiction: "PL" | "UK";
  date: Date;
}

/** The first draws of generateJudgment (./generate.ts): which jurisdiction and decision date row `index` gets. */
export function rowMeta(seed: number, index: number): RowMeta {
  const rng = new Rng(`judgment:${seed}:${index}`);
  const known = KNOWN_ANSWERS.find((k) => k.index === index);
  const jurisdiction: "PL" | "UK" = known ? known.jurisdiction : rng.chance(0.5) ? "PL" : "UK";
  const year = 2003 + Math.floor(22 * Math.sqrt(rng.next()));
  const start = Date.UTC(year, 0, 1);
  const days = (Date.UTC(year + 1, 0, 1) - start) / 86_400_000;
  return { jurisdiction, date: new Date(start + rng.int(0, days - 1) * 86_400_000) };
}

export interface CitationNetwork {
  seed: number;
  leading: Record<"PL" | "UK", { index: number; id: string; citedBy: number[] }>;
  /** UK [A, B, C, D]: each cites the one before it. */
  chain: number[];
  /** PL: followed by `followers`, departed from by `overruling`, whose view `later` rows then apply. */
  overruled: { overruled: number; followers: number[]; overruling: number; later: number[] };
  /** For each citing row (in the slice) the rows it cites and how (followed / overruled / applied). */
  cites: Map<number, { index: number; treatment: "followed" | "overruled" | "applied" }[]>;
  /** Every network member (cited or citing). */
  members: Set<number>;
}

const networks = new Map<number, CitationNetwork>();

/** The planted network for `seed` (memoised; 600 cheap draws the first time). */
export function plantedCitationNetwork(seed: number): CitationNetwork {
  const hit = networks.get(seed);
  if (hit) return hit;
  const excluded = new Set<number>([...KNOWN_ANSWERS.map((k) => k.index), ...JUDGE_INDEXES, ...LINE_INDEXES]);
  const meta = Array.from({ length: NETWORK_SLICE }, (_, i) => rowMeta(seed, i));
  const eligible = (j: "PL" | "UK") =>
    meta.map((m, i) => ({ i, ...m })).filter((r) => r.jurisdiction === j && !excluded.has(r.i) && r.i % REPORTED_EVERY !== REPORTED_REMAINDER);
  const byDate = (a: { i: number; date: Date }, b: { i: number; date: Date }) => a.date.getTime() - b.date.getTime() || a.i - b.i;
  const used = new Set<number>();
  const cites = new Map<number, { index: number; treatment: "followed" | "overruled" | "applied" }[]>();
  const cite = (from: number, to: number, treatment: "followed" | "overruled" | "applied") => {
    cites.set(from, [...(cites.get(from) ?? []), { index: to, treatment }]);
  };

  const leading = {} as CitationNetwork["leading"];
  for (const j of ["PL", "UK"] as const) {
    const rows = eligible(j).sort(byDate);
    const lead = rows[0];
    used.add(lead.i);
    // Spread the citers over the slice (every other later row), so they are not all of one period.
    const later = rows.filter((r) => r.date.getTime() > lead.date.getTime());
    const citedBy = later.filter((_, k) => k % 2 === 0).slice(0, CITERS_PER_LEADING).map((r) => r.i).sort((a, b) => a - b);
    for (const c of citedBy) {
      used.add(c);
      cite(c, lead.i, "followed");
    }
    leading[j] = { index: lead.i, id: judgmentId(seed, lead.i), citedBy };
  }

  const free = (j: "PL" | "UK") => eligible(j).filter((r) => !used.has(r.i)).sort(byDate);
  const at = <T>(rows: T[], q: number) => rows[Math.min(rows.length - 1, Math.floor(q * rows.length))];

  const ukFree = free("UK");
  const chain = [0.1, 0.35, 0.6, 0.85].map((q) => at(ukFree, q).i);
  chain.forEach((c) => used.add(c));
  for (let k = 1; k < chain.length; k++) cite(chain[k], chain[k - 1], "followed");

  const plFree = free("PL");
  const pick = (q: number) => at(plFree, q).i;
  const overruled = { overruled: pick(0.1), followers: [pick(0.25), pick(0.35), pick(0.45)], overruling: pick(0.6), later: [pick(0.75), pick(0.9)] };
  for (const f of overruled.followers) cite(f, overruled.overruled, "followed");
  cite(overruled.overruling, overruled.overruled, "overruled");
  for (const l of overruled.later) cite(l, overruled.overruling, "applied");

  const members = new Set<number>([
    leading.PL.index, ...leading.PL.citedBy, leading.UK.index, ...leading.UK.citedBy, ...chain,
    overruled.overruled, ...overruled.followers, overruled.overruling, ...overruled.later,
  ]);
  const net: CitationNetwork = { seed, leading, chain, overruled, cites, members };
  networks.set(seed, net);
  return net;
}

/** True for a "reported" row that ordinary rows may cite (never a network member, so the planted counts stay exact). */
export function isReported(seed: number, index: number): boolean {
  return index % REPORTED_EVERY === REPORTED_REMAINDER && !plantedCitationNetwork(seed).members.has(index);
}

/** The reported rows an ordinary row may cite: the nearest ones around it, at most `n` (cheap: no text generated). */
export function reportedCandidates(seed: number, index: number, rng: Rng, n: number): number[] {
  const base = index - (index % REPORTED_EVERY) + REPORTED_REMAINDER;
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const cand = base - REPORTED_EVERY * rng.int(0, 40);
    if (cand >= 0 && cand !== index && isReported(seed, cand) && !out.includes(cand)) out.push(cand);
  }
  return out;
}

/** Ids for tests: the network's rows as judgment ids. */
export function networkIds(seed: number): { leadingPl: string; leadingUk: string; chain: string[]; overruled: string; overruling: string } {
  const n = plantedCitationNetwork(seed);
  return {
    leadingPl: n.leading.PL.id,
    leadingUk: n.leading.UK.id,
    chain: n.chain.map((i) => judgmentId(seed, i)),
    overruled: judgmentId(seed, n.overruled.overruled),
    overruling: judgmentId(seed, n.overruled.overruling),
  };
}
