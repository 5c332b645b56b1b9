/**
 * The Meilisearch topics index (spec: Other records): `<index>_topics`, one document per topic of the latest
 * stored run, each carrying the run's fields (run_id, computed_at, counts) so the whole index reads back in one call.
 * Replaced whole: the old index is dropped and a new one filled (it holds at most 30 documents; a reader in between
 * sees no run and autocomplete falls back to the mined legal topics for that moment). `label` and `terms` (the keywords)
 * are its searchable attributes; autocomplete matches the topics read whole (../topics-index.ts), as the embedded
 * engine does, so both adapters answer alike.
 */
import type { TopicIndexEntry, TopicsIndex, TopicsPort } from "../types";
import type { MeiliConnection, Raw } from "./connection";
import { mapMeiliError, meiliErrorCode } from "./errors";

export class MeiliTopics implements TopicsPort {
  readonly uid: string;

  constructor(private readonly conn: MeiliConnection) {
    this.uid = `${conn.cfg.index}_topics`;
  }

  async replace(index: TopicsIndex | null): Promise<void> {
    if (await this.conn.indexExists(this.uid)) await this.conn.run(`drop ${this.uid}`, this.conn.client.deleteIndex(this.uid));
    if (index === null) return;
    await this.conn.createIndex(this.uid);
    await this.conn.run(
      `settings of ${this.uid}`,
      this.conn.index(this.uid).updateSettings({ searchableAttributes: ["label", "terms"], displayedAttributes: ["*"] }),
    );
    const docs: Raw[] = index.topics.map((t) => ({
      ...t,
      terms: t.keywords.map((k) => k.term),
      computed_at: index.computed_at,
      topic_count: index.topic_count,
      document_count: index.document_count,
    }));
    if (docs.length > 0) await this.conn.run(`add ${this.uid}`, this.conn.index(this.uid).addDocuments(docs, { primaryKey: "id" }));
  }

  async read(): Promise<TopicsIndex | null> {
    let docs: Raw[];
    try {
      docs = (await this.conn.index(this.uid).getDocuments({ limit: 100 })).results;
    } catch (e) {
      if (meiliErrorCode(e) === "index_not_found") return null;
      throw mapMeiliError(e, "topics index");
    }
    if (docs.length === 0) return null;
    const topics = docs.map(toEntry).sort((a, b) => a.topic - b.topic);
    const first = docs[0];
    return {
      run_id: String(first.run_id),
      computed_at: String(first.computed_at),
      topic_count: Number(first.topic_count),
      document_count: Number(first.document_count),
      topics,
    };
  }
}

function toEntry(d: Raw): TopicIndexEntry {
  return {
    id: String(d.id),
    run_id: String(d.run_id),
    topic: Number(d.topic),
    label: String(d.label),
    keywords: Array.isArray(d.keywords) ? (d.keywords as TopicIndexEntry["keywords"]) : [],
    size: Number(d.size),
    coherence: Number(d.coherence),
    trend: d.trend === "emerging" || d.trend === "declining" ? d.trend : "stable",
    slope: Number(d.slope),
    weights_by_period: Array.isArray(d.weights_by_period) ? (d.weights_by_period as TopicIndexEntry["weights_by_period"]) : [],
  };
}
