/**
 * `npm run api:example -- --key K [--url http://127.0.0.1:3000]`
 *
 * A typed client of the reference API (`/api/v1`, docs/api.md) exercising list, search, detail and collections
 * against a running app, as a research group's script would. Exits non-zero on the first unexpected answer. The types
 * are the ones lib/backend builds the answers with (type imports only: nothing server-side runs here).
 */
import { parseArgs } from "node:util";
import type { V1DocumentsList, V1SearchResponse } from "../../lib/backend/api-v1/documents";
import type { V1CollectionList } from "../../lib/backend/api-v1/account";
import type { Collection, CollectionWithDocuments } from "../../lib/backend/collections/collections";

const USAGE = "usage: npm run api:example -- --key <API key> [--url http://127.0.0.1:3000]";

interface ReferenceError {
  error: string;
  message: string;
  details: Record<string, unknown>;
  status_code: number;
}

class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
  ) {}

  async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<{ data: T; headers: Headers }> {
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: { "X-API-Key": this.key, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000), // every outbound call has a time-out
    });
    const data = (await res.json()) as T | ReferenceError;
    if (!res.ok) {
      const e = data as ReferenceError;
      throw new Error(`${method} ${path} → ${res.status} ${e.error}: ${e.message} ${JSON.stringify(e.details)}`);
    }
    return { data: data as T, headers: res.headers };
  }
}

async function main() {
  let values: { key?: string; url?: string };
  try {
    ({ values } = parseArgs({ options: { key: { type: "string" }, url: { type: "string" } }, strict: true }));
  } catch {
    console.error(USAGE);
    process.exit(2);
  }
  if (!values.key) {
    console.error(USAGE);
    process.exit(2);
  }
  const api = new ApiClient(values.url ?? process.env.APP_URL ?? "http://127.0.0.1:3000", values.key);

  const list = await api.call<V1DocumentsList>("GET", "/api/v1/documents?limit=5&jurisdiction=UK");
  console.log(`list: ${list.data.results.length} of ${list.data.total} UK judgments (page ${list.data.page}/${list.data.pages})`);
  console.log(`  Link: ${list.headers.get("link")}`);
  console.log(`  X-RateLimit-Remaining: ${list.headers.get("x-ratelimit-remaining")} of ${list.headers.get("x-ratelimit-limit")}`);

  const search = await api.call<V1SearchResponse>("POST", "/api/v1/documents/search", { query: "sentence appeal", search_type: "hybrid", limit: 3 });
  console.log(`search: ${search.data.total} hits (${search.data.search_metadata.search_type}, ${search.data.search_metadata.query_time_ms} ms)`);
  for (const r of search.data.results) console.log(`  ${r.score.toFixed(3)}  ${String(r.case_number ?? "")}  ${String(r.title ?? "")}`);

  const first = search.data.results[0] ?? list.data.results[0];
  if (!first) throw new Error("the corpus is empty");
  const detail = await api.call<Record<string, unknown>>("GET", `/api/v1/documents/${first.id}`);
  console.log(`detail: ${String(detail.data.case_number)} — ${String(detail.data.court_name)}, ${String(detail.data.full_text ?? "").length} characters of text`);

  const created = await api.call<Collection>("POST", "/api/v1/collections", {
    name: `api:example ${new Date().toISOString()}`,
    description: "made by npm run api:example",
    document_ids: search.data.results.map((r) => r.id),
    tags: ["api-example"],
  });
  console.log(`collection created: ${created.data.id} with ${created.data.document_count} judgments`);
  const one = await api.call<CollectionWithDocuments>("GET", `/api/v1/collections/${created.data.id}`);
  console.log(`collection read: ${one.data.documents.length} documents`);
  const mine = await api.call<V1CollectionList>("GET", "/api/v1/collections?limit=5");
  console.log(`collections: ${mine.data.total} in all`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`api:example: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
