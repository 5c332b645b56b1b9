/** Reasoning lines: the shapes the routes answer with (lifecycle in docs/analytics.md). */

// ---------------------------------------------------------------- shapes

export type MemberRole = "origin" | "follows" | "distinguishes" | "departs";
export type EventKind = "drift" | "split" | "merge" | "reversal" | "new_member";

export interface ReasoningLine {
  id: string;
  label: string;
  description: string | null;
  keywords: string[];
  legal_question: string | null;
  status: "active" | "merged" | "deleted";
  created_at: string;
  updated_at: string;
  member_count: number;
  first_date: string | null;
  last_date: string | null;
}

export interface LineMember {
  judgment_id: string;
  position: number;
  decision_date: string | null;
  similarity: number | null;
  role: MemberRole;
  case_number: string | null;
  title: string | null;
  jurisdiction: string;
  court_name: string | null;
}

export interface LineEvent {
  id: string;
  kind: EventKind;
  at: string;
  details: Record<string, unknown>;
  detected_by: string;
}

export type LineDetail = ReasoningLine & { members: LineMember[]; events: LineEvent[] };

export interface LinePage {
  lines: ReasoningLine[];
  total: number;
  page: number;
  limit: number;
  has_more: boolean;
}

export interface CandidateMember {
  judgment_id: string;
  case_number: string | null;
  title: string | null;
  jurisdiction: string | null;
  decision_date: string | null;
  /** Cosine similarity to the cluster centroid. */
  similarity: number;
}

export interface CandidateLine {
  id: number;
  label: string;
  terms: { term: string; weight: number }[];
  size: number;
  cohesion: number;
  /** Keywords and legal topics shared by at least half of the members (at least two). */
  shared_keywords: { value: string; count: number }[];
  shared_legislation: { value: string; count: number }[];
  members: CandidateMember[];
  edges: { source: string; target: string; similarity: number }[];
  first_date: string | null;
  last_date: string | null;
}

export interface DiscoverResult {
  candidates: CandidateLine[];
  params: { sample_size: number; num_clusters: number; seed: number; text_query: string | null; edge_threshold: number };
  sample_n: number;
  corpus_size: number;
  embedder: { id: string; label: string; kind: "lexical" | "model" };
  mode: "no-model";
  computed_ms: number;
}
