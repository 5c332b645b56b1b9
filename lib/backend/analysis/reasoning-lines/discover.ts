/**
 * Discovery clusters the judgments' vectors from the search engine's own embedder (the text and embedder lib/search
 * indexes with: `embeddingText`, getSearch()) with seeded k-means, labels clusters by TF-IDF, and stores nothing.
 */
import { config } from "@/lib/config";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { fromDatabaseError } from "@/lib/errors";
import { analysisText, nameTerms } from "@/lib/analysis/document";
import { clusterLabels, clusterVectors, cosine, similarityEdges } from "@/lib/analysis/kmeans";
import { seededSample } from "@/lib/analysis/sample";
import { analysisTokens } from "@/lib/analysis/text";
import { buildTfidf } from "@/lib/analysis/tfidf";
import { isoDate } from "@/lib/search/document";
import type { Embedder } from "@/lib/search/types";
import type { DiscoverRequest } from "@/lib/schema/requests/discover";
import { byDate, centroidOf, embedRows, judgmentRows, round, shared, str, strs, unit } from "./rows";
import type { CandidateLine, CandidateMember, DiscoverResult } from "./types";

/** POST /api/reasoning-lines/discover: candidate lines over a seeded sample of the cohort; nothing is stored. */
export async function discoverLines(db: DbClient, embedder: Embedder, req: DiscoverRequest): Promise<DiscoverResult> {
  const started = performance.now();
  const filters = req.filters;
  const textQuery = req.text_query?.trim() || null;
  const { data, error } = await db.rpc("list_extracted_filter_matches", { p_filters: jsonArg(filters), p_text_query: textQuery ?? "" });
  if (error) throw fromDatabaseError(error);
  const cohort = (data ?? []).map((r) => ({ id: r.id }));
  // The aggregate's seeded sample (lib/analysis/sample.ts), so the same request and seed read the same judgments.
  const sample = seededSample(cohort, req.sample_size, req.seed);
  const rows = await judgmentRows(
    db,
    sample.map((s) => s.id),
  );
  const vectors = await embedRows(embedder, rows);
  const unitVectors = vectors.map(unit);
  // Centred on the sample's mean before clustering: every judgment of one court system shares its boilerplate (the
  // header the engine embeds), which otherwise dominates the cosine and makes k-means split by jurisdiction only
  // (measured on the demo slice: at k = 6 the planted line's cluster held 108 judgments uncentred, 46 centred).
  const mean = centroidOf(unitVectors);
  const clustering = clusterVectors(
    unitVectors.map((v) => v.map((x, d) => x - mean[d])),
    { k: req.num_clusters, seed: req.seed },
  );
  const tfidf = buildTfidf(rows.map((r) => analysisTokens(analysisText(r), undefined, nameTerms(r))));
  const labels = clusterLabels(clustering, tfidf, 6);
  const threshold = config().REASONING_EDGE_THRESHOLD_PCT / 100;
  const candidates = clustering.clusters.map((c, i): CandidateLine => {
    // Similarities are reported in the engine's own space (uncentred cosine), as search would see them.
    const centroid = centroidOf(c.members.map((m) => unitVectors[m]));
    const members = c.members
      .map((m): CandidateMember => {
        const r = rows[m];
        return {
          judgment_id: r.id,
          case_number: str(r.case_number),
          title: str(r.title),
          jurisdiction: str(r.jurisdiction),
          decision_date: isoDate(r.decision_date) ?? null,
          similarity: round(cosine(unitVectors[m], centroid)),
        };
      })
      .sort((a, b) => byDate(a, b) || (a.judgment_id < b.judgment_id ? -1 : 1));
    const memberRows = c.members.map((m) => rows[m]);
    const edges = similarityEdges(unitVectors, threshold, c.members).map((e) => ({
      source: rows[e.source].id,
      target: rows[e.target].id,
      similarity: e.similarity,
    }));
    return {
      id: c.id,
      label: labels[i]?.label ?? "",
      terms: labels[i]?.terms ?? [],
      size: c.members.length,
      cohesion: round(c.members.reduce((a, m) => a + cosine(unitVectors[m], centroid), 0) / c.members.length),
      shared_keywords: shared(memberRows, (r) => [...strs(r.keywords), ...strs(r.legal_topics), ...strs(r.base_keywords)]),
      shared_legislation: shared(memberRows, (r) => strs(r.cited_legislation)),
      members,
      edges,
      first_date: members[0]?.decision_date ?? null,
      last_date: members.at(-1)?.decision_date ?? null,
    };
  });
  return {
    candidates,
    params: { sample_size: req.sample_size, num_clusters: req.num_clusters, seed: req.seed, text_query: textQuery, edge_threshold: threshold },
    sample_n: rows.length,
    corpus_size: cohort.length,
    embedder: { id: embedder.id, label: embedder.label, kind: embedder.kind },
    mode: "no-model",
    computed_ms: Math.round(performance.now() - started),
  };
}

// ---------------------------------------------------------------- reads
