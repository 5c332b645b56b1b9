/**
 * Planted topics (known answers for topic modelling): two themes no other judgment of the demo corpus talks
 * about, added to the extracted keywords (and, on Polish rows, the keywords column) of a known share of judgments, so
 * a topic run must find each as a topic of its own. Additive: no known-answer judgment (known-answers.ts) is touched,
 * and the planting draws from its own generator (`planted-topics:<seed>:<index>`), so every other value of every row
 * is exactly what it was before.
 *
 * The planted answers:
 * - `pl-grandparent-scam`: Polish judgments, 12 % of non-known-answer PL rows, any year: the "grandchild" and "false
 *   policeman" phone scams on elderly people. A run must give a topic whose keywords include at least three of `terms`.
 *   (Not cryptocurrency: the planted reasoning line of planted-lines.ts is about that, and the two plants must not
 *   share words, or each would blur the other's known answer.)
 * - `uk-prison-drones`: UK judgments, from 2 % of non-known-answer UK rows in 2003 rising linearly to 12 % in 2024:
 *   drones carrying contraband into prisons. A run must give a topic with at least three of `terms`, and it is
 *   **emerging** (its share of judgments grows over the years).
 *
 * Hook (supabase/seed/generate.ts, one line): `plantTopics(c, { seed, index, jurisdiction, decisionDate: date, known: !!known });`
 */
import { Rng } from "../../lib/analysis/prng";
import type { GeneratedCase } from "./types";

export interface PlantedTopic {
  key: string;
  jurisdiction: "PL" | "UK";
  /** Keyword phrases planted (each planted judgment gets five of them). */
  phrases: readonly string[];
  /** Folded analysis terms of the phrases: a discovered topic matches when at least three are among its keywords. */
  terms: readonly string[];
  /** Chance a judgment of the jurisdiction in `year` is planted. */
  rate(year: number): number;
  /** The trend a run over the whole time span must report, when the planting makes one (else undefined). */
  trend?: "emerging" | "declining";
}

export const PLANTED_TOPICS: readonly PlantedTopic[] = [
  {
    key: "pl-grandparent-scam",
    jurisdiction: "PL",
    phrases: ["metoda na wnuczka", "fałszywy policjant", "oszustwo na seniora", "kurier po gotówkę", "wyłudzenie oszczędności", "podszywanie się pod krewnego"],
    terms: ["wnuczka", "falszywy", "policjant", "seniora", "kurier", "gotowke", "wyludzenie", "oszczednosci", "podszywanie", "krewnego"],
    rate: () => 0.12,
  },
  {
    key: "uk-prison-drones",
    jurisdiction: "UK",
    phrases: ["drone", "prison contraband", "drone delivery", "prison perimeter", "unmanned aircraft", "contraband smuggling"],
    terms: ["drone", "prison", "contraband", "delivery", "perimeter", "unmanned", "aircraft", "smuggling"],
    rate: (year) => 0.04 + (0.16 * Math.min(Math.max(year - 2003, 0), 21)) / 21,
    trend: "emerging",
  },
];

export interface PlantContext {
  seed: number;
  index: number;
  jurisdiction: "PL" | "UK";
  decisionDate: Date;
  /** A known-answer judgment: never planted. */
  known: boolean;
}

/** The planted topic of a row, if any (a pure function of seed, index, jurisdiction and year). */
export function plantedTopicOf(ctx: PlantContext): PlantedTopic | undefined {
  if (ctx.known) return undefined;
  const rng = new Rng(`planted-topics:${ctx.seed}:${ctx.index}`);
  const year = ctx.decisionDate.getUTCFullYear();
  const draw = rng.next();
  return PLANTED_TOPICS.find((t) => t.jurisdiction === ctx.jurisdiction && draw < t.rate(year));
}

/** Add the row's planted topic (if any) to its extracted keywords and, where the row has them, its keywords. */
export function plantTopics(c: GeneratedCase, ctx: PlantContext): void {
  const topic = plantedTopicOf(ctx);
  if (!topic) return;
  const rng = new Rng(`planted-topics:${ctx.seed}:${ctx.index}:phrases`);
  const phrases = [...topic.phrases];
  // Five of the six phrases, in a seeded order: co-occurring but not identical keyword sets.
  for (let i = phrases.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [phrases[i], phrases[j]] = [phrases[j], phrases[i]];
  }
  const chosen = phrases.slice(0, 5);
  const extracted = c.extraction.keywords;
  if (Array.isArray(extracted)) c.extraction.keywords = [...(extracted as unknown[]), ...chosen];
  if (c.keywords) c.keywords = [...c.keywords, ...chosen];
}
