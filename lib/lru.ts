import { LRUCache } from "lru-cache";

/**
 * A bounded LRU map by entry count: `lru-cache` with only `max` set, for memo tables (highlighting, keyword expansion,
 * embeddings, compiled predicates). Caches whose entries expire use lru-cache's `ttl` directly
 * (lib/api/token-claims.ts, lib/backend/api-keys.ts).
 */
export class LruCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> extends LRUCache<K, V> {
  constructor(capacity: number) {
    super({ max: capacity });
  }
}
