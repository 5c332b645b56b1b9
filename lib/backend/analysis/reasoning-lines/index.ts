/**
 * Reasoning lines (lifecycle in docs/analytics.md). Lines, members and events are global rows behind RLS
 * (supabase/migrations/20261125140000_reasoning_lines.sql): reads for any signed-in user, writes for admins only,
 * always through the caller's own client so the database applies its own gate as well as the web tier's.
 */
export * from "./types";
export { engineEmbedder, lineId, lineParams } from "./rows";
export { discoverLines } from "./discover";
export * from "./read";
export { createLine, deleteLine } from "./write";
export { detectEvents, driftAnalysis, type DriftAnalysis, type DriftPoint } from "./events";
export { analyzeOutcomes, summariseOutcomes, type OutcomeAnalysis, type OutcomeSummaryInput } from "./outcomes";
