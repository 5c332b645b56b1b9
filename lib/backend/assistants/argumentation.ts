/**
 * Argumentation analysis: POST /api/argumentation/argumentation/analyze.
 *
 * No model (mode "rules"): the argument-bearing paragraphs of each judgment are those where a reasoning phrase of the
 * shared pattern file matches (lib/analysis/data/reasoning-patterns.json, the judge fingerprint's patterns); each is
 * classified by its most frequent style, its party inferred from cue words (whose argument the paragraph reports),
 * its sentences split into legal premises (those citing law), factual premises, counter-arguments (sentences that
 * answer an objection) and a conclusion (the last sentence); strength is omitted, because phrase counts say nothing
 * about it. With a model (mode "llm"): generateObject with a zod schema per judgment; an answer that does not fit the
 * schema is 502 ARGUMENTATION_OUTPUT_INVALID.
 */
import { generateObject, type LanguageModel } from "ai";
import { z } from "zod";
import { findPatternMatches, foldText, REASONING_STYLES, type ReasoningStyle } from "@/lib/analysis/reasoning-patterns";
import { splitSentences } from "@/lib/analysis/textrank";
import { llmCallSettings, tokensUsed, type AssistantMode } from "@/lib/llm/call";
import { findCitations } from "@/lib/search/citations";
import { REASONING_PATTERN_VALUES, type ArgumentationRequest } from "@/lib/schema/requests/assistant-tools";
import type { Identity } from "../identity";
import type { ToolDeps } from "./document-helpers";
import { modelCallError, modelName, NO_MODEL_MODE, pickModel, readJudgments, textForModel, type JudgmentForTools } from "./tools-common";

export type Party = "prosecution" | "defence" | "court" | "unknown";

export interface Argument {
  party: Party;
  factual_premises: string[];
  legal_premises: string[];
  conclusion: string;
  reasoning_pattern: ReasoningStyle;
  /** Model mode only: the rules cannot judge it. */
  strength?: "strong" | "moderate" | "weak";
  counter_arguments: string[];
  references: string[];
  /** No-model mode: the reasoning phrases that made this paragraph an argument (evidence). */
  evidence?: string[];
}

export interface DocumentArguments {
  document_id: string;
  case_number: string | null;
  title: string | null;
  arguments: Argument[];
  overall: string;
}

export interface ArgumentationResponse {
  analyses: DocumentArguments[];
  mode: AssistantMode;
  model: string | null;
  tokens_used: number;
}

/** Arguments kept per judgment by detail level. */
export const MAX_ARGUMENTS = { basic: 5, detailed: 12 } as const;
const MAX_PREMISES = { basic: 2, detailed: 5 } as const;

/**
 * Cue words (folded) saying whose argument a paragraph reports. The court's own reasoning is the default: most
 * argument-bearing paragraphs of a judgment are the court's.
 */
const PARTY_CUES: Readonly<Record<Exclude<Party, "unknown">, RegExp>> = {
  prosecution: /\b(?:prokurator\w*|oskarzyciel\w*|apelacj\w* prokuratora|the crown|the prosecution|prosecuting counsel|counsel for the crown|respondent)\b/g,
  defence: /\b(?:obronc\w*|apelujac\w*|skarzac\w*|apelacj\w* obroncy|the appellant|appellant's|the defence|defence counsel|counsel for the appellant|the applicant)\b/g,
  court: /\b(?:sad (?:apelacyjny|odwolawczy|okregowy|najwyzszy) (?:zwazyl|uznal|stwierdza|przyjmuje|podziela)|sad odwolawczy|w ocenie sadu|zdaniem sadu|we (?:are|do not|consider|accept|reject)|in our (?:judgment|view)|this court|the court (?:is|was|considers|accepts))\b/g,
};

/** Sentences answering an objection (folded cues). */
const COUNTER_RE = /\b(?:zarzut\w*|wbrew|nie (?:mozna|sposob) (?:zgodzic|podzielic)|chybion\w*|nietrafn\w*|bezzasadn\w*|however|nevertheless|it was (?:argued|submitted)|contrary to|we reject|we do not accept|unpersuasive)\b/;

/** Statutory references in a sentence: Polish articles and codes, English sections and Acts. */
const LAW_RE =
  /\b(?:art\.\s*\d+[a-z]?(?:\s*§\s*\d+[a-z]?)?(?:\s*(?:pkt|ust\.)\s*\d+)?(?:\s*(?:k\.k\.w?|k\.p\.k\.|k\.c\.|k\.k\.s\.|kk|kpk))?|sections?\s+\d+[A-Z]?(?:\(\d+\))*(?:\s+of\s+the\s+[A-Z][\w ]+?Act\s+\d{4})?|[A-Z][\w ]+? Act \d{4}|s\.\s?\d+[A-Z]?(?:\(\d+\))*)/g;

function lawRefs(text: string): string[] {
  return [...text.matchAll(LAW_RE)].map((m) => m[0].replace(/\s+/g, " ").trim());
}

function countCues(folded: string, re: RegExp): number {
  return (folded.match(re) ?? []).length;
}

/** The party whose argument a paragraph reports: the most cue words, the court on a tie or none. */
export function inferParty(paragraph: string): Party {
  const f = foldText(paragraph);
  const court = countCues(f, PARTY_CUES.court);
  const pros = countCues(f, PARTY_CUES.prosecution);
  const def = countCues(f, PARTY_CUES.defence);
  if (pros > def && pros > court) return "prosecution";
  if (def > pros && def > court) return "defence";
  return "court";
}

/** Paragraphs of a judgment: blank-line or line separated blocks of some length. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n|\n(?=\s*\S)/)
    .map((p) => p.trim())
    .filter((p) => p.length >= 80);
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** The no-model analysis of one judgment. */
export function ruleArguments(doc: Pick<JudgmentForTools, "id" | "case_number" | "title" | "full_text">, opts: Pick<ArgumentationRequest, "detail_level" | "focus_areas">): DocumentArguments {
  const level = opts.detail_level;
  const focus = (opts.focus_areas ?? []).map((f) => foldText(f)).filter(Boolean);
  const found: (Argument & { weight: number; order: number })[] = [];
  paragraphs(doc.full_text).forEach((p, order) => {
    const matches = findPatternMatches(p);
    if (matches.length === 0) return;
    if (focus.length && !focus.some((f) => foldText(p).includes(f))) return;
    const byStyle = new Map<ReasoningStyle, number>();
    for (const m of matches) byStyle.set(m.pattern.style, (byStyle.get(m.pattern.style) ?? 0) + 1);
    // Most matches wins; ties in the order of REASONING_STYLES (deterministic).
    const style = [...REASONING_STYLES].sort((a, b) => (byStyle.get(b) ?? 0) - (byStyle.get(a) ?? 0))[0];
    const sentences = splitSentences(p).map((s) => s.text.replace(/\s+/g, " "));
    const conclusion = sentences.at(-1) ?? p;
    const rest = sentences.slice(0, -1);
    const counter = rest.filter((s) => COUNTER_RE.test(foldText(s)));
    const legal = rest.filter((s) => !counter.includes(s) && lawRefs(s).length > 0);
    const factual = rest.filter((s) => !counter.includes(s) && !legal.includes(s));
    const cap = MAX_PREMISES[level];
    found.push({
      party: inferParty(p),
      factual_premises: factual.slice(0, cap),
      legal_premises: legal.slice(0, cap),
      conclusion,
      reasoning_pattern: style,
      counter_arguments: counter.slice(0, cap),
      references: dedupe([...lawRefs(p), ...findCitations(p).map((c) => c.text.trim())]).slice(0, 10),
      evidence: dedupe(matches.map((m) => m.pattern.phrase)),
      weight: matches.length,
      order,
    });
  });
  // The paragraphs with the most reasoning phrases, shown in the judgment's order.
  const kept = [...found]
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .slice(0, MAX_ARGUMENTS[level])
    .sort((a, b) => a.order - b.order)
    .map(({ weight: _w, order: _o, ...a }) => a);
  return { document_id: doc.id, case_number: doc.case_number, title: doc.title, arguments: kept, overall: overallText(found) };
}

/** One line on the whole: how many argument-bearing paragraphs, the dominant pattern, who argues. */
function overallText(found: Argument[]): string {
  if (found.length === 0) return "No argument-bearing paragraphs were found by the reasoning-phrase patterns.";
  const styles = new Map<string, number>();
  const parties = new Map<string, number>();
  for (const a of found) {
    styles.set(a.reasoning_pattern, (styles.get(a.reasoning_pattern) ?? 0) + 1);
    parties.set(a.party, (parties.get(a.party) ?? 0) + 1);
  }
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([k, n]) => `${k} ${n}`)
      .join(", ");
  return `${found.length} argument-bearing paragraph${found.length === 1 ? "" : "s"}; reasoning patterns: ${list(styles)}; parties: ${list(parties)}.`;
}

/** The structure a model must answer with (one judgment). */
export const argumentationOutput = z.object({
  arguments: z
    .array(
      z.object({
        party: z.enum(["prosecution", "defence", "court", "unknown"]),
        factual_premises: z.array(z.string()).max(10),
        legal_premises: z.array(z.string()).max(10),
        conclusion: z.string().min(1),
        reasoning_pattern: z.enum(REASONING_PATTERN_VALUES),
        strength: z.enum(["strong", "moderate", "weak"]),
        counter_arguments: z.array(z.string()).max(10),
        references: z.array(z.string()).max(20),
      }),
    )
    .max(20),
  overall: z.string().min(1),
});

const SYSTEM = [
  "You analyse the arguments in a court judgment (Polish or England & Wales criminal appeal) for lawyers.",
  "Use only the judgment's text. For each argument give the party that makes it (prosecution, defence or court), its",
  "factual and legal premises, its conclusion, its reasoning pattern (deductive, analogical, policy, textual,",
  "teleological), its strength (strong, moderate, weak) with the court's treatment in mind, the counter-arguments the",
  "text states, and the provisions and cases it references. Then one overall assessment. Quote or paraphrase closely.",
].join("\n");

/** One judgment analysed by the model (exported for the mock-model tests). */
export async function modelArguments(doc: JudgmentForTools, body: ArgumentationRequest, model: LanguageModel, deps: ToolDeps) {
  const focus = body.focus_areas?.length ? `\nFocus on: ${body.focus_areas.join("; ")}.` : "";
  try {
    const r = await generateObject({
      model,
      schema: argumentationOutput,
      schemaName: "argumentation",
      system: SYSTEM,
      prompt: `Give at most ${MAX_ARGUMENTS[body.detail_level]} arguments (${body.detail_level} detail).${focus}\n\n${textForModel(doc.full_text)}`,
      ...llmCallSettings({ signal: deps.signal, functionId: "argumentation" }),
    });
    const analysis: DocumentArguments = {
      document_id: doc.id,
      case_number: doc.case_number,
      title: doc.title,
      arguments: r.object.arguments.slice(0, MAX_ARGUMENTS[body.detail_level]),
      overall: r.object.overall,
    };
    return { analysis, tokens: tokensUsed(r.usage) };
  } catch (e) {
    throw modelCallError(e, "ARGUMENTATION_OUTPUT_INVALID");
  }
}

export async function analyzeArgumentation(body: ArgumentationRequest, identity: Identity, deps: ToolDeps = {}): Promise<ArgumentationResponse> {
  const docs = await readJudgments(body.document_ids, identity);
  const model = pickModel(deps.model);
  if (!model) {
    return { analyses: docs.map((d) => ruleArguments(d, body)), mode: NO_MODEL_MODE.argumentation, model: null, tokens_used: 0 };
  }
  const results = await Promise.all(docs.map((d) => modelArguments(d, body, model, deps)));
  return { analyses: results.map((r) => r.analysis), mode: "llm", model: modelName(model), tokens_used: results.reduce((a, r) => a + r.tokens, 0) };
}
