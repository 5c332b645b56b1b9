/**
 * A fake Meilisearch server for tests (ARCHITECTURE: "Mock only ... the Meilisearch server (its HTTP contract)").
 *
 * It is a real node:http server on 127.0.0.1 (random port) that implements the subset of Meilisearch's documented
 * HTTP API the adapter uses, with the documented response shapes:
 * - asynchronous writes answer 202 with a summarized task (`{taskUid, indexUid, status: "enqueued", type,
 *   enqueuedAt}`); `GET /tasks/:uid` moves the task to `processing` and then to `succeeded`/`failed`, applying
 *   its effect in enqueue order (like the real task queue). Nothing is applied until someone waits for it.
 * - error bodies are `{message, code, type, link}` with the documented codes (`index_not_found`,
 *   `invalid_search_filter`, `invalid_search_embedder`, `vector_embedding_error`, `invalid_vector_dimensions`, ...).
 * - search answers `hits` (with `_formatted`, `_rankingScore`), `query`, `processingTimeMs`, `limit`, `offset`,
 *   `estimatedTotalHits` (capped by `pagination.maxTotalHits`), `facetDistribution`, `facetStats`, and for hybrid
 *   queries `semanticHitCount`.
 *
 * Search is a small in-memory engine (tokens, prefix on the last word, typo tolerance by word length, ranking rules
 * words/typo/attribute/sort/exactness, `matchingStrategy` all/last, cosine similarity for vectors) — enough for
 * obvious-match conformance assertions, not a model of Meilisearch's exact scores. Filters are parsed by an
 * independent parser of the documented filter syntax, so whatever the adapter prints must be valid Meilisearch.
 *
 * Every request is recorded (method, path, query, JSON body) for exact-request assertions, and failures can be
 * injected: HTTP errors, slow answers, failed tasks, tasks that never finish.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

// ---------------------------------------------------------------------------------------------------------------
// Types

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Doc = Record<string, Json>;

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/indexes/judgments/search`. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body (undefined when empty). */
  body: unknown;
  authorization?: string;
}

export interface MeiliErrorBody {
  message: string;
  code: string;
  type: string;
  link: string;
}

export interface Injection {
  method?: string;
  path?: string | RegExp;
  /** Respond with this status and body (default body: a documented internal error). */
  status?: number;
  body?: unknown;
  /** Wait this long before answering (or before the normal handling when no status is given). */
  delayMs?: number;
  /** How many matching requests this applies to (default 1; Infinity = until cleared). */
  times?: number;
}

export interface TaskFailure {
  /** Task type to fail, e.g. `settingsUpdate`, `documentAdditionOrUpdate`, `indexSwap`. */
  type: string;
  indexUid?: string;
  error: Omit<MeiliErrorBody, "link" | "type"> & { type?: string };
  times?: number;
}

type TaskStatus = "enqueued" | "processing" | "succeeded" | "failed" | "canceled";

interface Task {
  uid: number;
  batchUid: number | null;
  indexUid: string | null;
  status: TaskStatus;
  type: string;
  canceledBy: null;
  details: Record<string, Json>;
  error: MeiliErrorBody | null;
  duration: string | null;
  enqueuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Applies the effect; returns updated details or throws a MeiliError. */
  apply: () => Record<string, Json> | void;
  polls: number;
}

interface Settings {
  displayedAttributes: string[];
  searchableAttributes: string[];
  filterableAttributes: string[];
  sortableAttributes: string[];
  rankingRules: string[];
  stopWords: string[];
  nonSeparatorTokens: string[];
  separatorTokens: string[];
  dictionary: string[];
  synonyms: Record<string, string[]>;
  distinctAttribute: string | null;
  proximityPrecision: string;
  typoTolerance: {
    enabled: boolean;
    minWordSizeForTypos: { oneTypo: number; twoTypos: number };
    disableOnWords: string[];
    disableOnAttributes: string[];
    disableOnNumbers: boolean;
  };
  faceting: { maxValuesPerFacet: number; sortFacetValuesBy: Record<string, string> };
  pagination: { maxTotalHits: number };
  embedders: Record<string, Record<string, Json>>;
  searchCutoffMs: number | null;
  localizedAttributes: Json;
  facetSearch: boolean;
  prefixSearch: string;
}

interface Index {
  uid: string;
  primaryKey: string | null;
  createdAt: string;
  updatedAt: string;
  settings: Settings;
  /** Insertion-ordered documents by primary key (string form). */
  documents: Map<string, Doc>;
}

class MeiliError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type: string = "invalid_request",
  ) {
    super(message);
  }
  body(): MeiliErrorBody {
    return { message: this.message, code: this.code, type: this.type, link: `https://docs.meilisearch.com/errors#${this.code}` };
  }
}

/** Documented defaults of a fresh index (GET /indexes/:uid/settings). */
export function defaultSettings(): Settings {
  return {
    displayedAttributes: ["*"],
    searchableAttributes: ["*"],
    filterableAttributes: [],
    sortableAttributes: [],
    rankingRules: ["words", "typo", "proximity", "attribute", "sort", "exactness"],
    stopWords: [],
    nonSeparatorTokens: [],
    separatorTokens: [],
    dictionary: [],
    synonyms: {},
    distinctAttribute: null,
    proximityPrecision: "byWord",
    typoTolerance: {
      enabled: true,
      minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
      disableOnWords: [],
      disableOnAttributes: [],
      disableOnNumbers: false,
    },
    faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { "*": "alpha" } },
    pagination: { maxTotalHits: 1000 },
    embedders: {},
    searchCutoffMs: null,
    localizedAttributes: null,
    facetSearch: true,
    prefixSearch: "indexingTime",
  };
}

const clone = <T>(v: T): T => structuredClone(v);
const now = () => new Date().toISOString();

// ---------------------------------------------------------------------------------------------------------------
// Server

export class FakeMeilisearch {
  readonly requests: RecordedRequest[] = [];
  readonly indexes = new Map<string, Index>();
  readonly tasks: Task[] = [];
  /** How many `GET /tasks/:uid` answers say `processing` before the task finishes (0 = finish on first poll). */
  pollsBeforeDone = 1;
  /** When true, tasks stay `processing` forever (task-wait timeouts). */
  holdTasks = false;
  /** Reported by GET /version. */
  version = "1.19.0";
  /** Called after a settings task is applied; tests use it to simulate a server that ignores a key. */
  afterSettingsApplied?: (index: Index) => void;

  private server: http.Server | null = null;
  private injections: Array<Injection & { left: number }> = [];
  private taskFailures: Array<TaskFailure & { left: number }> = [];
  private dumpCounter = 0;

  constructor(private readonly masterKey?: string) {}

  url = "";

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Forget recorded requests (state is kept). */
  clearRequests(): void {
    this.requests.length = 0;
  }

  /** Recorded requests other than task polling (GET /tasks/:uid), which depends on timing. */
  calls(): Array<Pick<RecordedRequest, "method" | "path" | "query" | "body">> {
    return this.requests
      .filter((r) => !(r.method === "GET" && /^\/tasks\/\d+$/.test(r.path)))
      .map(({ method, path, query, body }) => ({ method, path, query, body }));
  }

  inject(injection: Injection): void {
    this.injections.push({ ...injection, left: injection.times ?? 1 });
  }

  failTask(failure: TaskFailure): void {
    this.taskFailures.push({ ...failure, left: failure.times ?? 1 });
  }

  clearInjections(): void {
    this.injections = [];
    this.taskFailures = [];
  }

  /** Finish every pending task now (tests that set state up without an adapter). */
  processAll(): void {
    for (const t of this.tasks) if (t.status === "enqueued" || t.status === "processing") this.finish(t);
  }

  /** Direct state access for arranging scenarios (e.g. an index whose embedder was removed). */
  index(uid: string): Index | undefined {
    return this.indexes.get(uid);
  }

  // -------------------------------------------------------------------------------------------------------------

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    let body: unknown = undefined;
    let badJson = false;
    if (raw !== "") {
      try {
        body = JSON.parse(raw);
      } catch {
        badJson = true;
        body = raw;
      }
    }
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams.entries()),
      body,
      authorization: req.headers.authorization,
    };
    this.requests.push(record);

    const send = (status: number, payload: unknown) => {
      if (res.destroyed) return;
      const text = payload === undefined ? "" : JSON.stringify(payload);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(text);
    };

    const injection = this.injections.find(
      (i) =>
        i.left > 0 &&
        (i.method === undefined || i.method === method) &&
        (i.path === undefined || (typeof i.path === "string" ? i.path === url.pathname : i.path.test(url.pathname))),
    );
    if (injection) {
      injection.left -= 1;
      if (injection.delayMs) await new Promise((r) => setTimeout(r, injection.delayMs));
      if (injection.status !== undefined) {
        send(
          injection.status,
          injection.body ?? new MeiliError(injection.status, "internal", "An internal error has occurred.", "internal").body(),
        );
        return;
      }
    }

    try {
      if (badJson) throw new MeiliError(400, "malformed_payload", "The json payload provided is malformed.");
      if (url.pathname !== "/health") this.authorize(req.headers.authorization);
      const [status, payload] = this.route(method, url, body);
      send(status, payload);
    } catch (e) {
      if (e instanceof MeiliError) send(e.status, e.body());
      else send(500, new MeiliError(500, "internal", String(e), "internal").body());
    }
  }

  private authorize(header: string | undefined): void {
    if (!this.masterKey) return;
    if (!header) {
      throw new MeiliError(401, "missing_authorization_header", "The Authorization header is missing. It must use the bearer authorization method.", "auth");
    }
    if (header !== `Bearer ${this.masterKey}`) throw new MeiliError(403, "invalid_api_key", "The provided API key is invalid.", "auth");
  }

  private route(method: string, url: URL, body: unknown): [number, unknown] {
    const p = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const key = `${method} /${p.map((s, i) => (i === 1 && (p[0] === "indexes" || p[0] === "tasks") ? ":id" : s)).join("/")}`;
    const uid = p[1];
    switch (key) {
      case "GET /health":
        return [200, { status: "available" }];
      case "GET /version":
        return [200, { commitSha: "0000000000000000000000000000000000000000", commitDate: "2025-01-01T00:00:00Z", pkgVersion: this.version }];
      case "GET /stats":
        return [200, this.globalStats()];
      case "GET /indexes":
        return [200, this.listIndexes(url)];
      case "POST /indexes":
        return [202, this.createIndexTask(body)];
      case "GET /indexes/:id":
        return [200, this.indexObject(this.mustIndex(uid))];
      case "DELETE /indexes/:id":
        return [202, this.enqueue("indexDeletion", uid, { deletedDocuments: null }, () => this.deleteIndex(uid))];
      case "GET /indexes/:id/stats":
        return [200, this.indexStats(this.mustIndex(uid))];
      case "GET /indexes/:id/settings":
        return [200, clone(this.mustIndex(uid).settings)];
      case "GET /indexes/:id/settings/embedders":
        return [200, clone(this.mustIndex(uid).settings.embedders)];
      case "PATCH /indexes/:id/settings":
        return [202, this.settingsTask(uid, body)];
      case "POST /indexes/:id/documents":
      case "PUT /indexes/:id/documents":
        return [202, this.documentsTask(uid, body, url.searchParams.get("primaryKey"), method === "PUT")];
      case "GET /indexes/:id/documents":
        return [200, this.fetchDocuments(uid, {
          ids: url.searchParams.get("ids")?.split(","),
          fields: url.searchParams.get("fields")?.split(","),
          limit: url.searchParams.has("limit") ? Number(url.searchParams.get("limit")) : undefined,
          offset: url.searchParams.has("offset") ? Number(url.searchParams.get("offset")) : undefined,
          retrieveVectors: url.searchParams.get("retrieveVectors") === "true",
        })];
      case "POST /indexes/:id/documents/delete":
        return [202, this.deleteByFilterTask(uid, body)];
      case "POST /indexes/:id/documents/delete-batch":
        return [202, this.deleteBatchTask(uid, body)];
      case "DELETE /indexes/:id/documents":
        return [202, this.enqueue("documentDeletion", uid, { deletedDocuments: null, providedIds: 0, originalFilter: null }, () => {
          const idx = this.mustIndex(uid);
          const n = idx.documents.size;
          idx.documents.clear();
          return { deletedDocuments: n, providedIds: 0, originalFilter: null };
        })];
      case "POST /indexes/:id/documents/fetch":
        return [200, this.fetchDocuments(uid, body)];
      case "POST /indexes/:id/search":
        return [200, this.search(this.mustIndex(uid), (body ?? {}) as Record<string, unknown>)];
      case "POST /indexes/:id/similar":
        return [200, this.similar(this.mustIndex(uid), (body ?? {}) as Record<string, unknown>)];
      case "POST /swap-indexes":
        return [202, this.swapTask(body)];
      case "POST /dumps":
        return [202, this.dumpTask()];
      case "GET /tasks/:id":
        return [200, this.pollTask(Number(uid))];
      case "GET /tasks":
        return [200, this.listTasks(url)];
      default:
        if (p[0] === "indexes" && p[2] === "documents" && p.length === 4 && method === "GET") {
          return [200, this.getDocument(uid, p[3], url.searchParams.get("fields"), url.searchParams.get("retrieveVectors") === "true")];
        }
        if (p[0] === "indexes" && p[2] === "documents" && p.length === 4 && method === "DELETE") {
          return [202, this.enqueue("documentDeletion", uid, { providedIds: 1, deletedDocuments: null, originalFilter: null }, () => {
            const removed = this.mustIndex(uid).documents.delete(p[3]) ? 1 : 0;
            return { providedIds: 1, deletedDocuments: removed, originalFilter: null };
          })];
        }
        throw new MeiliError(404, "not_found", "Not Found", "invalid_request");
    }
  }

  // ---- tasks ----------------------------------------------------------------------------------------------------

  private enqueue(type: string, indexUid: string | null, details: Record<string, Json>, apply: Task["apply"]) {
    const task: Task = {
      uid: this.tasks.length,
      batchUid: null,
      indexUid,
      status: "enqueued",
      type,
      canceledBy: null,
      details,
      error: null,
      duration: null,
      enqueuedAt: now(),
      startedAt: null,
      finishedAt: null,
      apply,
      polls: 0,
    };
    this.tasks.push(task);
    return { taskUid: task.uid, indexUid, status: "enqueued", type, enqueuedAt: task.enqueuedAt };
  }

  private pollTask(uid: number): Record<string, unknown> {
    const task = this.tasks[uid];
    if (!task) throw new MeiliError(404, "task_not_found", `Task \`${uid}\` not found.`);
    if (task.status === "enqueued" || task.status === "processing") {
      task.polls += 1;
      if (!this.holdTasks && task.polls > this.pollsBeforeDone) {
        // The real queue processes in order: everything enqueued before this task finishes first.
        for (const t of this.tasks) {
          if (t.uid > uid) break;
          if (t.status === "enqueued" || t.status === "processing") this.finish(t);
        }
      } else {
        task.status = "processing";
        task.startedAt ??= now();
      }
    }
    return this.taskView(task);
  }

  private finish(task: Task): void {
    task.startedAt ??= now();
    const failure = this.taskFailures.find(
      (f) => f.left > 0 && f.type === task.type && (f.indexUid === undefined || f.indexUid === task.indexUid),
    );
    if (failure) {
      failure.left -= 1;
      task.status = "failed";
      task.error = {
        message: failure.error.message,
        code: failure.error.code,
        type: failure.error.type ?? "invalid_request",
        link: `https://docs.meilisearch.com/errors#${failure.error.code}`,
      };
    } else {
      try {
        const details = task.apply();
        if (details) task.details = details;
        task.status = "succeeded";
      } catch (e) {
        if (!(e instanceof MeiliError)) throw e;
        task.status = "failed";
        task.error = e.body();
      }
    }
    task.finishedAt = now();
    task.duration = "PT0.001S";
    task.batchUid = task.uid;
  }

  private taskView(t: Task) {
    return {
      uid: t.uid,
      batchUid: t.batchUid,
      indexUid: t.indexUid,
      status: t.status,
      type: t.type,
      canceledBy: t.canceledBy,
      details: t.details,
      error: t.error,
      duration: t.duration,
      enqueuedAt: t.enqueuedAt,
      startedAt: t.startedAt,
      finishedAt: t.finishedAt,
    };
  }

  private listTasks(url: URL) {
    let list = [...this.tasks].reverse();
    const statuses = url.searchParams.get("statuses")?.split(",");
    const types = url.searchParams.get("types")?.split(",");
    const uids = url.searchParams.get("indexUids")?.split(",");
    if (statuses) list = list.filter((t) => statuses.includes(t.status));
    if (types) list = list.filter((t) => types.includes(t.type));
    if (uids) list = list.filter((t) => t.indexUid !== null && uids.includes(t.indexUid));
    const limit = Number(url.searchParams.get("limit") ?? 20);
    const page = list.slice(0, limit);
    return { results: page.map((t) => this.taskView(t)), total: list.length, limit, from: page[0]?.uid ?? null, next: list[limit]?.uid ?? null };
  }

  // ---- indexes --------------------------------------------------------------------------------------------------

  private mustIndex(uid: string): Index {
    const idx = this.indexes.get(uid);
    if (!idx) throw new MeiliError(404, "index_not_found", `Index \`${uid}\` not found.`);
    return idx;
  }

  private ensureIndex(uid: string, primaryKey: string | null = null): Index {
    let idx = this.indexes.get(uid);
    if (!idx) {
      idx = { uid, primaryKey, createdAt: now(), updatedAt: now(), settings: defaultSettings(), documents: new Map() };
      this.indexes.set(uid, idx);
    }
    return idx;
  }

  private indexObject(idx: Index) {
    return { uid: idx.uid, createdAt: idx.createdAt, updatedAt: idx.updatedAt, primaryKey: idx.primaryKey };
  }

  private listIndexes(url: URL) {
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const limit = Number(url.searchParams.get("limit") ?? 20);
    const all = [...this.indexes.values()].sort((a, b) => a.uid.localeCompare(b.uid));
    return { results: all.slice(offset, offset + limit).map((i) => this.indexObject(i)), offset, limit, total: all.length };
  }

  private createIndexTask(body: unknown) {
    const b = (body ?? {}) as { uid?: unknown; primaryKey?: unknown };
    if (typeof b.uid !== "string") throw new MeiliError(400, "missing_index_uid", "Missing field `uid`");
    if (!/^[A-Za-z0-9_-]{1,400}$/.test(b.uid)) {
      throw new MeiliError(400, "invalid_index_uid", `\`${b.uid}\` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.`);
    }
    const uid = b.uid;
    const primaryKey = typeof b.primaryKey === "string" ? b.primaryKey : null;
    return this.enqueue("indexCreation", uid, { primaryKey }, () => {
      if (this.indexes.has(uid)) throw new MeiliError(409, "index_already_exists", `Index \`${uid}\` already exists.`);
      this.ensureIndex(uid, primaryKey);
      return { primaryKey };
    });
  }

  private deleteIndex(uid: string) {
    const idx = this.mustIndex(uid);
    this.indexes.delete(uid);
    return { deletedDocuments: idx.documents.size };
  }

  private indexStats(idx: Index) {
    const fieldDistribution: Record<string, number> = {};
    let embeddings = 0;
    let embedded = 0;
    for (const d of idx.documents.values()) {
      for (const k of Object.keys(d)) if (k !== "_vectors") fieldDistribution[k] = (fieldDistribution[k] ?? 0) + 1;
      const v = d._vectors as Record<string, Json> | undefined;
      if (v && Object.keys(v).some((name) => name in idx.settings.embedders)) {
        embedded += 1;
        embeddings += Object.keys(v).filter((name) => name in idx.settings.embedders).length;
      }
    }
    const size = JSON.stringify([...idx.documents.values()]).length;
    return {
      numberOfDocuments: idx.documents.size,
      rawDocumentDbSize: size,
      avgDocumentSize: idx.documents.size ? Math.round(size / idx.documents.size) : 0,
      isIndexing: this.tasks.some((t) => t.indexUid === idx.uid && (t.status === "enqueued" || t.status === "processing")),
      numberOfEmbeddings: embeddings,
      numberOfEmbeddedDocuments: embedded,
      fieldDistribution,
    };
  }

  private globalStats() {
    const indexes: Record<string, unknown> = {};
    for (const idx of this.indexes.values()) indexes[idx.uid] = this.indexStats(idx);
    const lastTask = [...this.tasks].reverse().find((t) => t.finishedAt);
    return { databaseSize: 1 << 20, usedDatabaseSize: 1 << 19, lastUpdate: lastTask?.finishedAt ?? null, indexes };
  }

  private swapTask(body: unknown) {
    if (!Array.isArray(body)) throw new MeiliError(400, "invalid_swap_indexes", "Invalid value type: expected an array");
    const swaps = body as Array<{ indexes?: unknown; rename?: unknown }>;
    for (const s of swaps) {
      if (!Array.isArray(s.indexes) || s.indexes.length !== 2 || !s.indexes.every((x) => typeof x === "string")) {
        throw new MeiliError(400, "invalid_swap_indexes", "Invalid value at `.indexes`: expected an array of two index uids");
      }
      for (const k of Object.keys(s)) {
        if (k !== "indexes" && k !== "rename") throw new MeiliError(400, "bad_request", `Unknown field \`${k}\`: expected one of \`indexes\`, \`rename\``);
      }
    }
    return this.enqueue("indexSwap", null, { swaps: clone(swaps) as Json }, () => {
      const missing = swaps.flatMap((s) => (s.indexes as string[]).filter((u, i) => !(s.rename === true && i === 1) && !this.indexes.has(u)));
      if (missing.length) throw new MeiliError(404, "index_not_found", `Indexes ${missing.map((m) => `\`${m}\``).join(", ")} not found.`);
      for (const s of swaps) {
        const [a, b] = s.indexes as [string, string];
        const ia = this.indexes.get(a)!;
        if (s.rename === true) {
          if (this.indexes.has(b)) throw new MeiliError(409, "index_already_exists", `Index \`${b}\` already exists.`);
          this.indexes.delete(a);
          this.indexes.set(b, { ...ia, uid: b });
        } else {
          const ib = this.indexes.get(b)!;
          this.indexes.set(a, { ...ib, uid: a });
          this.indexes.set(b, { ...ia, uid: b });
        }
      }
    });
  }

  private dumpTask() {
    const dumpUid = `20250101-000000${String(this.dumpCounter++).padStart(3, "0")}`;
    return this.enqueue("dumpCreation", null, { dumpUid: null }, () => ({ dumpUid }));
  }

  // ---- settings -------------------------------------------------------------------------------------------------

  private settingsTask(uid: string, body: unknown) {
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new MeiliError(400, "bad_request", "Invalid value type: expected an object");
    }
    const patch = body as Record<string, unknown>;
    const known = Object.keys(defaultSettings());
    for (const k of Object.keys(patch)) {
      if (!known.includes(k)) {
        throw new MeiliError(400, "bad_request", `Unknown field \`${k}\`: expected one of ${known.map((x) => `\`${x}\``).join(", ")}`);
      }
    }
    const emb = patch.embedders as Record<string, Record<string, unknown> | null> | undefined;
    if (emb) {
      for (const [name, e] of Object.entries(emb)) {
        if (e === null) continue;
        if (e.source === "userProvided") {
          if (typeof e.dimensions !== "number") {
            throw new MeiliError(400, "invalid_settings_embedders", `\`.embedders.${name}\`: Missing field \`dimensions\``);
          }
          if ("documentTemplate" in e) {
            throw new MeiliError(400, "invalid_settings_embedders", `\`.embedders.${name}\`: Field \`documentTemplate\` unavailable for source \`userProvided\`.`);
          }
        }
      }
    }
    return this.enqueue("settingsUpdate", uid, clone(patch) as Record<string, Json>, () => {
      const idx = this.ensureIndex(uid);
      applySettingsPatch(idx.settings, patch);
      idx.updatedAt = now();
      this.afterSettingsApplied?.(idx);
    });
  }

  // ---- documents ------------------------------------------------------------------------------------------------

  private documentsTask(uid: string, body: unknown, primaryKeyParam: string | null, merge: boolean) {
    if (!Array.isArray(body)) throw new MeiliError(400, "malformed_payload", "The `json` payload must be an array of objects.");
    const docs = clone(body) as Doc[];
    return this.enqueue("documentAdditionOrUpdate", uid, { receivedDocuments: docs.length, indexedDocuments: null }, () => {
      const idx = this.ensureIndex(uid);
      if (primaryKeyParam && idx.primaryKey && primaryKeyParam !== idx.primaryKey) {
        throw new MeiliError(400, "index_primary_key_already_exists", `Index \`${uid}\`: Index already has a primary key: \`${idx.primaryKey}\`.`);
      }
      idx.primaryKey ??= primaryKeyParam ?? (docs[0] && "id" in docs[0] ? "id" : null);
      const pk = idx.primaryKey;
      if (!pk) throw new MeiliError(400, "index_primary_key_no_candidate_found", "The primary key inference failed as the engine did not find any field ending with `id` in its name. Please specify the primary key manually using the `primaryKey` query parameter.");
      for (const d of docs) {
        const id = d[pk];
        if (id === undefined) throw new MeiliError(400, "missing_document_id", `Document doesn't have a \`${pk}\` attribute: \`${JSON.stringify(d)}\`.`);
        if (!((typeof id === "string" && /^[A-Za-z0-9_-]{1,511}$/.test(id)) || (typeof id === "number" && Number.isInteger(id) && id >= 0))) {
          throw new MeiliError(400, "invalid_document_id", `Document identifier \`${JSON.stringify(id)}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`);
        }
        validateVectors(idx, d);
      }
      for (const d of docs) {
        const id = String(d[pk]);
        const prev = idx.documents.get(id);
        idx.documents.set(id, merge && prev ? { ...prev, ...d } : d);
      }
      idx.updatedAt = now();
      return { receivedDocuments: docs.length, indexedDocuments: docs.length };
    });
  }

  private deleteBatchTask(uid: string, body: unknown) {
    if (!Array.isArray(body)) throw new MeiliError(400, "bad_request", "Invalid value type: expected an array");
    const ids = (body as Json[]).map(String);
    return this.enqueue("documentDeletion", uid, { providedIds: ids.length, deletedDocuments: null, originalFilter: null }, () => {
      const idx = this.mustIndex(uid);
      let deleted = 0;
      for (const id of ids) if (idx.documents.delete(id)) deleted += 1;
      return { providedIds: ids.length, deletedDocuments: deleted, originalFilter: null };
    });
  }

  private deleteByFilterTask(uid: string, body: unknown) {
    const filter = (body as { filter?: unknown } | null)?.filter;
    if (filter === undefined || filter === null) throw new MeiliError(400, "missing_document_filter", "Missing field `filter`");
    const idx = this.mustIndex(uid);
    // Validated at enqueue time like the real engine (invalid_document_filter).
    let node: FNode;
    try {
      node = parseFilterParam(filter, idx.settings.filterableAttributes);
    } catch (e) {
      if (e instanceof MeiliError) throw new MeiliError(400, "invalid_document_filter", e.message);
      throw e;
    }
    const originalFilter = JSON.stringify(filter);
    return this.enqueue("documentDeletion", uid, { providedIds: 0, deletedDocuments: null, originalFilter }, () => {
      let deleted = 0;
      for (const [id, d] of idx.documents) {
        if (evalFilter(node, d)) {
          idx.documents.delete(id);
          deleted += 1;
        }
      }
      return { providedIds: 0, deletedDocuments: deleted, originalFilter };
    });
  }

  private getDocument(uid: string, id: string, fields: string | null, retrieveVectors: boolean) {
    const idx = this.mustIndex(uid);
    const d = idx.documents.get(id);
    if (!d) throw new MeiliError(404, "document_not_found", `Document \`${id}\` not found.`);
    return this.project(idx, d, fields ? fields.split(",") : ["*"], retrieveVectors);
  }

  private fetchDocuments(uid: string, body: unknown) {
    const idx = this.mustIndex(uid);
    const b = (body ?? {}) as { ids?: unknown; fields?: unknown; limit?: unknown; offset?: unknown; filter?: unknown; retrieveVectors?: unknown };
    let docs = [...idx.documents.values()];
    if (Array.isArray(b.ids)) {
      const wanted = new Set(b.ids.map(String));
      docs = docs.filter((d) => wanted.has(String(d[idx.primaryKey ?? "id"])));
    }
    if (b.filter !== undefined && b.filter !== null) {
      const node = parseFilterParam(b.filter, idx.settings.filterableAttributes);
      docs = docs.filter((d) => evalFilter(node, d));
    }
    const offset = typeof b.offset === "number" ? b.offset : 0;
    const limit = typeof b.limit === "number" ? b.limit : 20;
    const fields = Array.isArray(b.fields) ? (b.fields as string[]) : ["*"];
    return {
      results: docs.slice(offset, offset + limit).map((d) => this.project(idx, d, fields, b.retrieveVectors === true)),
      offset,
      limit,
      total: docs.length,
    };
  }

  /** Displayed ∩ requested attributes, in document order; `_vectors` only on request (documented since v1.9). */
  private project(idx: Index, d: Doc, fields: string[], retrieveVectors: boolean): Doc {
    const displayed = idx.settings.displayedAttributes;
    const out: Doc = {};
    for (const [k, v] of Object.entries(d)) {
      if (k === "_vectors") continue;
      if (!(displayed.includes("*") || displayed.includes(k))) continue;
      if (!(fields.includes("*") || fields.includes(k))) continue;
      out[k] = v;
    }
    if (retrieveVectors && d._vectors && (displayed.includes("*") || displayed.includes("_vectors"))) {
      const vs: Record<string, Json> = {};
      for (const [name, v] of Object.entries(d._vectors as Record<string, Json>)) {
        vs[name] = { embeddings: Array.isArray(v) && typeof v[0] === "number" ? [v] : (v as Json), regenerate: false };
      }
      out._vectors = vs;
    }
    return out;
  }

  // ---- search ---------------------------------------------------------------------------------------------------

  private search(idx: Index, body: Record<string, unknown>) {
    const started = Date.now();
    const known = [
      "q", "offset", "limit", "page", "hitsPerPage", "filter", "sort", "facets", "attributesToRetrieve", "attributesToHighlight",
      "highlightPreTag", "highlightPostTag", "attributesToCrop", "cropLength", "cropMarker", "showMatchesPosition",
      "matchingStrategy", "showRankingScore", "showRankingScoreDetails", "rankingScoreThreshold", "attributesToSearchOn",
      "hybrid", "vector", "retrieveVectors", "distinct", "locales",
    ];
    for (const k of Object.keys(body)) {
      if (!known.includes(k)) throw new MeiliError(400, "bad_request", `Unknown field \`${k}\`: expected one of ${known.map((x) => `\`${x}\``).join(", ")}`);
    }
    const q = typeof body.q === "string" ? body.q : "";
    const limit = typeof body.limit === "number" ? body.limit : 20;
    const offset = typeof body.offset === "number" ? body.offset : 0;
    const s = idx.settings;

    // attributesToSearchOn must be searchable (documented error invalid_search_attributes_to_search_on).
    const searchable = s.searchableAttributes.includes("*") ? null : s.searchableAttributes;
    let searchOn = searchable;
    if (Array.isArray(body.attributesToSearchOn)) {
      const asked = body.attributesToSearchOn as string[];
      for (const a of asked) {
        if (searchable && !searchable.includes(a)) {
          throw new MeiliError(400, "invalid_search_attributes_to_search_on", `Attribute \`${a}\` is not searchable. Available searchable attributes are: \`${searchable.join(", ")}\`.`);
        }
      }
      searchOn = searchable ? searchable.filter((a) => asked.includes(a)) : asked;
    }

    // Filter, sort and facet attributes are checked against the settings, as the real engine does.
    const filterNode = body.filter === undefined || body.filter === null ? null : parseFilterParam(body.filter, s.filterableAttributes);
    const sort = Array.isArray(body.sort) ? (body.sort as string[]).map(parseSort) : [];
    for (const so of sort) {
      if (!s.sortableAttributes.includes(so.attribute)) {
        throw new MeiliError(400, "invalid_search_sort", `Attribute \`${so.attribute}\` is not sortable. Available sortable attributes are: \`${s.sortableAttributes.join(", ")}\`.`);
      }
    }
    const facets = Array.isArray(body.facets) ? (body.facets as string[]) : null;
    if (facets) {
      for (const f of facets) {
        if (f !== "*" && !s.filterableAttributes.includes(f)) {
          throw new MeiliError(400, "invalid_search_facets", `Invalid facet distribution, attribute \`${f}\` is not filterable. The available filterable attributes are \`${s.filterableAttributes.join(", ")}\`.`);
        }
      }
    }

    // Hybrid / vector.
    const hybrid = body.hybrid as { embedder?: unknown; semanticRatio?: unknown } | undefined | null;
    let semanticRatio = 0;
    let queryVector: number[] | null = null;
    if (hybrid !== undefined && hybrid !== null) {
      if (typeof hybrid !== "object") throw new MeiliError(400, "invalid_search_hybrid_query", "Invalid value type at `.hybrid`: expected an object");
      for (const k of Object.keys(hybrid)) {
        if (k !== "embedder" && k !== "semanticRatio") {
          throw new MeiliError(400, "invalid_search_hybrid_query", `Unknown field \`${k}\` inside \`.hybrid\`: expected one of \`semanticRatio\`, \`embedder\``);
        }
      }
      if (typeof hybrid.embedder !== "string") {
        throw new MeiliError(400, "missing_search_hybrid_embedder", "Missing field `embedder` inside `.hybrid`");
      }
      const ratio = hybrid.semanticRatio === undefined ? 0.5 : hybrid.semanticRatio;
      if (typeof ratio !== "number" || ratio < 0 || ratio > 1) {
        throw new MeiliError(400, "invalid_search_semantic_ratio", "Invalid value at `.hybrid.semanticRatio`: the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.");
      }
      const embedder = s.embedders[hybrid.embedder];
      if (!embedder) throw new MeiliError(400, "invalid_search_embedder", `Cannot find embedder with name \`${hybrid.embedder}\`.`);
      semanticRatio = ratio;
      if (Array.isArray(body.vector)) {
        queryVector = body.vector as number[];
        if (queryVector.length !== embedder.dimensions) {
          throw new MeiliError(400, "invalid_vector_dimensions", `Invalid vector dimensions: expected: \`${String(embedder.dimensions)}\`, found: \`${queryVector.length}\`.`);
        }
      } else if (semanticRatio === 1 && q !== "" && embedder.source === "userProvided") {
        throw new MeiliError(400, "vector_embedding_error", `Error while generating embeddings: user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - \`${q}\``);
      }
    } else if (body.vector !== undefined && body.vector !== null) {
      throw new MeiliError(400, "invalid_search_vector", "Passing `vector` as a parameter requires `hybrid` to be set with an `embedder`.");
    }
    const embedderName = hybrid && typeof hybrid.embedder === "string" ? hybrid.embedder : null;

    const candidates = [...idx.documents.values()].filter((d) => (filterNode ? evalFilter(filterNode, d) : true));
    const strategy = body.matchingStrategy === "all" ? "all" : "last";
    const words = tokenize(q).filter((w) => !s.stopWords.includes(w));
    const prefixLast = q !== "" && !/\s$/.test(q);
    const attrs = (d: Doc) => (searchOn ?? Object.keys(d).filter((k) => k !== "_vectors"));

    interface Scored { doc: Doc; kw: number | null; sem: number | null; buckets: number[]; score: number }
    const scored: Scored[] = [];
    for (const d of candidates) {
      let kw: number | null = null;
      let buckets: number[] = [];
      if (words.length === 0) {
        kw = 1;
      } else {
        const m = matchDoc(d, attrs(d), words, prefixLast, s);
        const required = strategy === "all" ? words.length : 1;
        if (m.matchedPrefix >= required) {
          const maxTypos = words.length * 2;
          buckets = [m.matchedPrefix, -m.typos, -m.bestAttribute, m.exact];
          kw = (m.matchedPrefix / words.length) * (1 - (0.5 * m.typos) / (maxTypos + 1)) * (1 - m.bestAttribute / 100);
        }
      }
      let sem: number | null = null;
      if (queryVector && embedderName) {
        const v = docVector(d, embedderName);
        if (v) sem = (1 + cosine(queryVector, v)) / 2;
      }
      const inKeyword = kw !== null && semanticRatio < 1;
      const inSemantic = sem !== null && semanticRatio > 0;
      if (!inKeyword && !inSemantic) continue;
      const score = semanticRatio > 0 && queryVector ? (inKeyword ? (1 - semanticRatio) * kw! : 0) + (inSemantic ? semanticRatio * sem! : 0) : kw ?? 0;
      scored.push({ doc: d, kw, sem, buckets, score });
    }

    const rules = s.rankingRules;
    const cmp = (a: Scored, b: Scored): number => {
      if (semanticRatio > 0 && queryVector) return b.score - a.score;
      for (const rule of rules) {
        let diff = 0;
        if (rule === "words") diff = (b.buckets[0] ?? 0) - (a.buckets[0] ?? 0);
        else if (rule === "typo") diff = (b.buckets[1] ?? 0) - (a.buckets[1] ?? 0);
        else if (rule === "attribute" || rule === "attributeRank") diff = (b.buckets[2] ?? 0) - (a.buckets[2] ?? 0);
        else if (rule === "exactness") diff = (b.buckets[3] ?? 0) - (a.buckets[3] ?? 0);
        else if (rule === "sort") {
          for (const so of sort) {
            diff = compareForSort(a.doc[so.attribute], b.doc[so.attribute], so.direction);
            if (diff !== 0) break;
          }
        } else {
          const custom = /^(.+):(asc|desc)$/.exec(rule);
          if (custom) diff = compareForSort(a.doc[custom[1]], b.doc[custom[1]], custom[2] as "asc" | "desc");
        }
        if (diff !== 0) return diff;
      }
      return 0;
    };
    scored.sort(cmp);

    const cap = s.pagination.maxTotalHits;
    const total = Math.min(scored.length, cap);
    const page = scored.slice(Math.min(offset, cap), Math.min(offset + limit, cap));

    const retrieve = Array.isArray(body.attributesToRetrieve) ? (body.attributesToRetrieve as string[]) : ["*"];
    const hl = Array.isArray(body.attributesToHighlight) ? (body.attributesToHighlight as string[]) : [];
    const crop = Array.isArray(body.attributesToCrop) ? (body.attributesToCrop as string[]) : [];
    const cropLength = typeof body.cropLength === "number" ? body.cropLength : 10;
    const pre = typeof body.highlightPreTag === "string" ? body.highlightPreTag : "<em>";
    const post = typeof body.highlightPostTag === "string" ? body.highlightPostTag : "</em>";
    const marker = typeof body.cropMarker === "string" ? body.cropMarker : "…";

    const hits = page.map((h) => {
      const out: Doc = this.project(idx, h.doc, retrieve, body.retrieveVectors === true);
      if (hl.length || crop.length) {
        const formatted: Doc = {};
        for (const [k, v] of Object.entries(out)) {
          if (k === "_vectors") continue;
          const doHl = hl.includes("*") || hl.includes(k);
          const cropSpec = crop.map((c) => c.split(":")).find(([name]) => name === k || name === "*");
          const fmt = (text: string): string => {
            let t = text;
            if (cropSpec) t = cropText(t, words, prefixLast, s, cropSpec[1] ? Number(cropSpec[1]) : cropLength, marker);
            if (doHl) t = highlightText(t, words, prefixLast, s, pre, post);
            return t;
          };
          if (typeof v === "string") formatted[k] = fmt(v);
          else if (Array.isArray(v)) formatted[k] = v.map((x) => (typeof x === "string" ? fmt(x) : x));
          else if (typeof v === "number" || typeof v === "boolean") formatted[k] = String(v);
          else formatted[k] = v;
        }
        out._formatted = formatted;
      }
      if (body.showRankingScore === true) out._rankingScore = semanticRatio > 0 && queryVector ? h.score : h.kw ?? h.sem ?? 0;
      return out;
    });

    const response: Record<string, unknown> = {
      hits,
      query: q,
      processingTimeMs: Date.now() - started,
      limit,
      offset,
      estimatedTotalHits: total,
    };
    if (facets) {
      const { distribution, stats } = facetDistribution(
        scored.map((x) => x.doc),
        facets.includes("*") ? s.filterableAttributes : facets,
        s.faceting.maxValuesPerFacet,
      );
      response.facetDistribution = distribution;
      response.facetStats = stats;
    }
    if (queryVector) response.queryVector = queryVector;
    if (hybrid) response.semanticHitCount = queryVector ? page.filter((h) => h.sem !== null && (h.kw === null || semanticRatio * h.sem > (1 - semanticRatio) * h.kw)).length : 0;
    return response;
  }

  private similar(idx: Index, body: Record<string, unknown>) {
    const started = Date.now();
    if (typeof body.embedder !== "string") throw new MeiliError(400, "missing_similar_embedder", "Missing field `embedder`");
    if (!idx.settings.embedders[body.embedder]) {
      throw new MeiliError(400, "invalid_similar_embedder", `Cannot find embedder with name \`${body.embedder}\`.`);
    }
    const id = String(body.id);
    const target = idx.documents.get(id);
    if (!target) throw new MeiliError(404, "not_found_similar_id", `Document \`${id}\` not found.`);
    const tv = docVector(target, body.embedder);
    if (!tv) throw new MeiliError(400, "invalid_similar_id", `Document \`${id}\` has no embedding for embedder \`${body.embedder}\`.`);
    const filterNode = body.filter === undefined || body.filter === null ? null : parseFilterParam(body.filter, idx.settings.filterableAttributes);
    const limit = typeof body.limit === "number" ? body.limit : 20;
    const offset = typeof body.offset === "number" ? body.offset : 0;
    const scored = [...idx.documents.entries()]
      .filter(([k, d]) => k !== id && (filterNode ? evalFilter(filterNode, d) : true))
      .map(([, d]) => ({ d, v: docVector(d, body.embedder as string) }))
      .filter((x): x is { d: Doc; v: number[] } => x.v !== null)
      .map((x) => ({ d: x.d, score: (1 + cosine(tv, x.v)) / 2 }))
      .sort((a, b) => b.score - a.score);
    const retrieve = Array.isArray(body.attributesToRetrieve) ? (body.attributesToRetrieve as string[]) : ["*"];
    return {
      hits: scored.slice(offset, offset + limit).map((x) => {
        const out = this.project(idx, x.d, retrieve, body.retrieveVectors === true);
        if (body.showRankingScore === true) out._rankingScore = x.score;
        return out;
      }),
      id,
      processingTimeMs: Date.now() - started,
      limit,
      offset,
      estimatedTotalHits: Math.min(scored.length, idx.settings.pagination.maxTotalHits),
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Settings merge (PATCH semantics: a given key replaces, null resets, nested objects merge, embedders merge by name)

function applySettingsPatch(target: Settings, patch: Record<string, unknown>): void {
  const defaults = defaultSettings();
  const t = target as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) {
    const def = (defaults as unknown as Record<string, unknown>)[k];
    if (v === null) {
      t[k] = clone(def);
    } else if (k === "embedders") {
      const cur = target.embedders;
      for (const [name, e] of Object.entries(v as Record<string, Record<string, Json> | null>)) {
        if (e === null) delete cur[name];
        else cur[name] = { ...(cur[name] ?? {}), ...e };
      }
    } else if (k === "sortableAttributes") {
      // Stored as a set: read back sorted (the real engine returns sortable attributes in alphabetical order).
      t[k] = [...new Set(v as string[])].sort();
    } else if (typeof def === "object" && def !== null && !Array.isArray(def) && k !== "synonyms") {
      const merged: Record<string, unknown> = { ...(t[k] as Record<string, unknown>) };
      for (const [nk, nv] of Object.entries(v as Record<string, unknown>)) {
        const nd = (def as Record<string, unknown>)[nk];
        if (nv === null) merged[nk] = clone(nd);
        else if (typeof nv === "object" && !Array.isArray(nv) && typeof nd === "object" && nd !== null && !Array.isArray(nd)) {
          merged[nk] = { ...(merged[nk] as Record<string, unknown>), ...(nv as Record<string, unknown>) };
        } else merged[nk] = nv;
      }
      t[k] = merged;
    } else {
      t[k] = clone(v);
    }
  }
}

function validateVectors(idx: Index, d: Doc): void {
  const vs = d._vectors;
  if (vs === undefined || vs === null) return;
  if (typeof vs !== "object" || Array.isArray(vs)) {
    throw new MeiliError(400, "invalid_document_vectors_field", "The `_vectors` field in the document is not an object.");
  }
  for (const [name, v] of Object.entries(vs)) {
    const e = idx.settings.embedders[name];
    if (!e) {
      throw new MeiliError(400, "invalid_document_vectors_field", `Bad embedder configuration in the document with id: \`${String(d[idx.primaryKey ?? "id"])}\`. Could not find embedder with name \`${name}\`.`);
    }
    const vec = Array.isArray(v) ? v : ((v as Record<string, Json> | null)?.embeddings as Json);
    if (vec === null || vec === undefined) continue;
    const flat = Array.isArray(vec) && Array.isArray(vec[0]) ? (vec[0] as Json[]) : (vec as Json[]);
    if (flat.length !== e.dimensions) {
      throw new MeiliError(400, "invalid_vector_dimensions", `Index \`${idx.uid}\`: Invalid vector dimensions: expected: \`${String(e.dimensions)}\`, found: \`${flat.length}\`.`);
    }
  }
}

function docVector(d: Doc, embedder: string): number[] | null {
  const v = (d._vectors as Record<string, Json> | undefined)?.[embedder];
  if (!v) return null;
  if (Array.isArray(v) && typeof v[0] === "number") return v as number[];
  if (Array.isArray(v) && Array.isArray(v[0])) return v[0] as number[];
  const emb = (v as Record<string, Json>).embeddings;
  if (Array.isArray(emb) && Array.isArray(emb[0])) return emb[0] as number[];
  if (Array.isArray(emb)) return emb as number[];
  return null;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

// ---------------------------------------------------------------------------------------------------------------
// Text matching

function normalizeWord(w: string): string {
  return w.normalize("NFD").replace(/\p{M}/gu, "").replace(/ł/g, "l").replace(/Ł/g, "l").toLowerCase();
}

export function tokenize(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).map(normalizeWord);
}

function levenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** Typos allowed for a query word (Meilisearch `minWordSizeForTypos`). */
function allowedTypos(word: string, s: Settings): number {
  if (!s.typoTolerance.enabled) return 0;
  if (s.typoTolerance.disableOnNumbers && /^\d+$/.test(word)) return 0;
  const { oneTypo, twoTypos } = s.typoTolerance.minWordSizeForTypos;
  return word.length >= twoTypos ? 2 : word.length >= oneTypo ? 1 : 0;
}

/** Match of one query word against one token: typos used, or null; `exact` when neither prefix nor typo. */
function wordMatch(word: string, token: string, isPrefix: boolean, s: Settings): { typos: number; exact: boolean; prefixLen?: number } | null {
  if (token === word) return { typos: 0, exact: true };
  if (isPrefix && token.startsWith(word)) return { typos: 0, exact: false, prefixLen: word.length };
  const allowed = allowedTypos(word, s);
  if (allowed > 0) {
    const d = levenshtein(word, token, allowed);
    if (d <= allowed) return { typos: d, exact: false };
    if (isPrefix && token.length > word.length) {
      const d2 = levenshtein(word, token.slice(0, word.length), allowed);
      if (d2 <= allowed) return { typos: d2, exact: false, prefixLen: word.length };
    }
  }
  return null;
}

function fieldText(v: Json | undefined): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === "string") return [v];
  if (typeof v === "number" || typeof v === "boolean") return [String(v)];
  if (Array.isArray(v)) return v.flatMap((x) => fieldText(x));
  return Object.values(v).flatMap((x) => fieldText(x));
}

function matchDoc(d: Doc, attrs: string[], words: string[], prefixLast: boolean, s: Settings) {
  const perWord = words.map((w, i) => {
    const isPrefix = prefixLast && i === words.length - 1;
    let best: { typos: number; attr: number; exact: boolean } | null = null;
    attrs.forEach((attr, rank) => {
      for (const text of fieldText(d[attr])) {
        for (const tok of tokenize(text)) {
          const m = wordMatch(w, tok, isPrefix, s);
          if (!m) continue;
          if (!best || m.typos < best.typos || (m.typos === best.typos && rank < best.attr) || (m.typos === best.typos && rank === best.attr && m.exact && !best.exact)) {
            best = { typos: m.typos, attr: rank, exact: m.exact };
          }
        }
      }
    });
    return best as { typos: number; attr: number; exact: boolean } | null;
  });
  // matchingStrategy "last": the longest matched prefix of the query words counts (trailing words are dropped).
  let matchedPrefix = 0;
  while (matchedPrefix < perWord.length && perWord[matchedPrefix]) matchedPrefix += 1;
  const used = perWord.slice(0, matchedPrefix) as Array<{ typos: number; attr: number; exact: boolean }>;
  return {
    matchedPrefix,
    typos: used.reduce((n, m) => n + m.typos, 0),
    bestAttribute: used.length ? Math.min(...used.map((m) => m.attr)) : 99,
    exact: used.filter((m) => m.exact).length,
  };
}

function highlightText(text: string, words: string[], prefixLast: boolean, s: Settings, pre: string, post: string): string {
  if (words.length === 0) return text;
  return text.replace(/[\p{L}\p{N}]+/gu, (tok) => {
    const norm = normalizeWord(tok);
    for (let i = 0; i < words.length; i++) {
      const m = wordMatch(words[i], norm, prefixLast && i === words.length - 1, s);
      if (!m) continue;
      if (m.prefixLen !== undefined && m.prefixLen < tok.length) return `${pre}${tok.slice(0, m.prefixLen)}${post}${tok.slice(m.prefixLen)}`;
      return `${pre}${tok}${post}`;
    }
    return tok;
  });
}

function cropText(text: string, words: string[], prefixLast: boolean, s: Settings, length: number, marker: string): string {
  const tokens = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  if (tokens.length <= length) return text;
  let first = 0;
  outer: for (let t = 0; t < tokens.length; t++) {
    const norm = normalizeWord(tokens[t][0]);
    for (let i = 0; i < words.length; i++) {
      if (wordMatch(words[i], norm, prefixLast && i === words.length - 1, s)) {
        first = t;
        break outer;
      }
    }
  }
  const start = Math.max(0, Math.min(first - Math.floor((length - 1) / 2), tokens.length - length));
  const end = start + length - 1;
  const from = tokens[start].index ?? 0;
  const to = (tokens[end].index ?? 0) + tokens[end][0].length;
  return `${start > 0 ? marker : ""}${text.slice(from, to)}${end < tokens.length - 1 ? marker : ""}`;
}

function facetDistribution(docs: Doc[], attrs: string[], maxValues: number) {
  const distribution: Record<string, Record<string, number>> = {};
  const stats: Record<string, { min: number; max: number }> = {};
  for (const a of attrs) {
    const counts = new Map<string, number>();
    let min = Infinity;
    let max = -Infinity;
    for (const d of docs) {
      const v = d[a];
      const values = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
      const seen = new Set<string>();
      for (const x of values) {
        if (typeof x === "number") {
          min = Math.min(min, x);
          max = Math.max(max, x);
        }
        if (typeof x !== "string" && typeof x !== "number" && typeof x !== "boolean") continue;
        const key = String(x);
        if (seen.has(key)) continue;
        seen.add(key);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    // Default faceting.sortFacetValuesBy is alpha; the engine keeps the first maxValuesPerFacet values.
    distribution[a] = Object.fromEntries([...counts.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).slice(0, maxValues));
    if (min !== Infinity) stats[a] = { min, max };
  }
  return { distribution, stats };
}

function parseSort(expr: string): { attribute: string; direction: "asc" | "desc" } {
  const m = /^([^:]+):(asc|desc)$/.exec(expr);
  if (!m) throw new MeiliError(400, "invalid_search_sort", `Invalid syntax for the sort parameter: expected expression ending by \`:asc\` or \`:desc\`, found \`${expr}\`.`);
  return { attribute: m[1], direction: m[2] as "asc" | "desc" };
}

function compareForSort(a: Json | undefined, b: Json | undefined, dir: "asc" | "desc"): number {
  // Documents lacking the field come last whatever the direction (documented behaviour).
  const missA = a === undefined || a === null;
  const missB = b === undefined || b === null;
  if (missA || missB) return missA === missB ? 0 : missA ? 1 : -1;
  // Numbers sort before strings.
  if (typeof a === "number" && typeof b !== "number") return -1;
  if (typeof b === "number" && typeof a !== "number") return 1;
  const c = typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  return dir === "asc" ? c : -c;
}

// ---------------------------------------------------------------------------------------------------------------
// Filter syntax (documented: =, !=, >, >=, <, <=, TO, EXISTS, IS NULL, IS EMPTY, IN, NOT, AND, OR, parentheses),
// parsed independently of the project's parser so the adapter's output is checked against the documented grammar.

type FNode =
  | { t: "and" | "or"; c: FNode[] }
  | { t: "not"; c: FNode }
  | { t: "cmp"; a: string; op: string; v: string }
  | { t: "to"; a: string; from: string; to: string }
  | { t: "in"; a: string; vs: string[] }
  | { t: "exists"; a: string }
  | { t: "null"; a: string }
  | { t: "empty"; a: string };

interface Tok {
  kind: "word" | "quoted" | "op" | "punct";
  text: string;
  pos: number;
}

function filterError(message: string): MeiliError {
  return new MeiliError(400, "invalid_search_filter", message);
}

function lexFilter(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "(" || ch === ")" || ch === "[" || ch === "]" || ch === ",") {
      out.push({ kind: "punct", text: ch, pos: i });
      i++;
      continue;
    }
    const op = /^(>=|<=|!=|=|>|<)/.exec(src.slice(i));
    if (op) {
      out.push({ kind: "op", text: op[1], pos: i });
      i += op[1].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      let text = "";
      while (j < src.length && src[j] !== ch) {
        if (src[j] === "\\" && j + 1 < src.length) {
          text += src[j + 1];
          j += 2;
        } else text += src[j++];
      }
      if (j >= src.length) throw filterError(`Expression \`${src.slice(i)}\` is missing the following closing delimiter: \`${ch}\`.\n${i + 1}:${src.length} ${src}`);
      out.push({ kind: "quoted", text, pos: i });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < src.length && !/[\s()[\],=!<>]/.test(src[j]) && src[j] !== '"' && src[j] !== "'") j++;
    if (j === i) throw filterError(`Found unexpected character \`${ch}\`.\n${i + 1}:${i + 2} ${src}`);
    out.push({ kind: "word", text: src.slice(i, j), pos: i });
    i = j;
  }
  return out;
}

function parseFilterString(src: string): FNode {
  const toks = lexFilter(src);
  let p = 0;
  const peek = () => toks[p];
  const kw = (t: Tok | undefined, w: string) => t?.kind === "word" && t.text.toUpperCase() === w;
  const expectMsg = () =>
    `Was expecting an operation \`=\`, \`!=\`, \`>=\`, \`>\`, \`<=\`, \`<\`, \`IN\`, \`NOT IN\`, \`TO\`, \`EXISTS\`, \`NOT EXISTS\`, \`IS NULL\`, \`IS NOT NULL\`, \`IS EMPTY\`, \`IS NOT EMPTY\`, \`_geoRadius\`, or \`_geoBoundingBox\` at \`${src}\`.`;
  const value = (): string => {
    const t = toks[p];
    if (!t || (t.kind !== "word" && t.kind !== "quoted")) throw filterError(expectMsg());
    p++;
    return t.text;
  };
  const primary = (): FNode => {
    const t = peek();
    if (!t) throw filterError(expectMsg());
    if (t.kind === "punct" && t.text === "(") {
      p++;
      const inner = orExpr();
      if (!(peek()?.kind === "punct" && peek()?.text === ")")) throw filterError(`Expression \`${src}\` is missing the following closing delimiter: \`)\`.`);
      p++;
      return inner;
    }
    if (kw(t, "NOT")) {
      p++;
      return { t: "not", c: primary() };
    }
    const attr = value();
    const next = peek();
    if (next?.kind === "op") {
      p++;
      return { t: "cmp", a: attr, op: next.text, v: value() };
    }
    if (kw(next, "EXISTS")) {
      p++;
      return { t: "exists", a: attr };
    }
    if (kw(next, "IS")) {
      p++;
      const neg = kw(peek(), "NOT");
      if (neg) p++;
      let node: FNode;
      if (kw(peek(), "NULL")) node = { t: "null", a: attr };
      else if (kw(peek(), "EMPTY")) node = { t: "empty", a: attr };
      else throw filterError(expectMsg());
      p++;
      return neg ? { t: "not", c: node } : node;
    }
    if (kw(next, "NOT")) {
      p++;
      if (kw(peek(), "EXISTS")) {
        p++;
        return { t: "not", c: { t: "exists", a: attr } };
      }
      if (kw(peek(), "IN")) {
        p++;
        return { t: "not", c: { t: "in", a: attr, vs: list() } };
      }
      throw filterError(expectMsg());
    }
    if (kw(next, "IN")) {
      p++;
      return { t: "in", a: attr, vs: list() };
    }
    // `attr from TO to`
    if (next && (next.kind === "word" || next.kind === "quoted") && kw(toks[p + 1], "TO")) {
      const from = value();
      p++;
      return { t: "to", a: attr, from, to: value() };
    }
    throw filterError(expectMsg());
  };
  const list = (): string[] => {
    if (!(peek()?.kind === "punct" && peek()?.text === "[")) throw filterError(`Expected \`[\` after \`IN\` keyword.`);
    p++;
    const vs: string[] = [];
    while (!(peek()?.kind === "punct" && peek()?.text === "]")) {
      vs.push(value());
      if (peek()?.kind === "punct" && peek()?.text === ",") p++;
      else if (!(peek()?.kind === "punct" && peek()?.text === "]")) throw filterError(`Expected matching \`]\` after the list of values.`);
    }
    p++;
    return vs;
  };
  const andExpr = (): FNode => {
    const c = [primary()];
    while (kw(peek(), "AND")) {
      p++;
      c.push(primary());
    }
    return c.length === 1 ? c[0] : { t: "and", c };
  };
  const orExpr = (): FNode => {
    const c = [andExpr()];
    while (kw(peek(), "OR")) {
      p++;
      c.push(andExpr());
    }
    return c.length === 1 ? c[0] : { t: "or", c };
  };
  const node = orExpr();
  if (p < toks.length) throw filterError(`Found unexpected characters at the end of the filter: \`${src.slice(toks[p].pos)}\`. You probably forgot an \`OR\` or an \`AND\` rule.`);
  return node;
}

function filterAttrs(n: FNode, out: string[] = []): string[] {
  if (n.t === "not") filterAttrs(n.c, out);
  else if ("a" in n) out.push(n.a);
  else n.c.forEach((c) => filterAttrs(c, out));
  return out;
}

function parseFilterParam(filter: unknown, filterable: string[]): FNode {
  let node: FNode;
  if (typeof filter === "string") node = parseFilterString(filter);
  else if (Array.isArray(filter)) {
    // Array form: outer array = AND, inner arrays = OR.
    node = {
      t: "and",
      c: filter.map((f) => (Array.isArray(f) ? { t: "or" as const, c: f.map((x) => parseFilterString(String(x))) } : parseFilterString(String(f)))),
    };
  } else throw filterError("Invalid value type at `.filter`: expected a string or an array");
  for (const a of filterAttrs(node)) {
    if (!filterable.includes(a)) {
      throw filterError(`Attribute \`${a}\` is not filterable. Available filterable attribute patterns are: \`${[...filterable].sort().join(", ")}\`.`);
    }
  }
  return node;
}

function valuesOf(d: Doc, a: string): Json[] {
  const v = d[a];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

function eqValue(x: Json, v: string): boolean {
  if (typeof x === "number") return Number(v) === x && v.trim() !== "";
  if (typeof x === "boolean") return v.toLowerCase() === String(x);
  if (typeof x === "string") return normalizeWord(x) === normalizeWord(v);
  return false;
}

function evalFilter(n: FNode, d: Doc): boolean {
  switch (n.t) {
    case "and":
      return n.c.every((c) => evalFilter(c, d));
    case "or":
      return n.c.some((c) => evalFilter(c, d));
    case "not":
      return !evalFilter(n.c, d);
    case "exists":
      return n.a in d;
    case "null":
      return d[n.a] === null;
    case "empty": {
      const v = d[n.a];
      return v === "" || (Array.isArray(v) && v.length === 0) || (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
    }
    case "in":
      return valuesOf(d, n.a).some((x) => n.vs.some((v) => eqValue(x, v)));
    case "to":
      return valuesOf(d, n.a).some((x) => typeof x === "number" && x >= Number(n.from) && x <= Number(n.to));
    case "cmp": {
      const vals = valuesOf(d, n.a);
      if (n.op === "=") return vals.some((x) => eqValue(x, n.v));
      if (n.op === "!=") return !vals.some((x) => eqValue(x, n.v));
      const target = Number(n.v);
      return vals.some((x) => {
        if (typeof x === "number" && !Number.isNaN(target)) {
          return n.op === ">" ? x > target : n.op === ">=" ? x >= target : n.op === "<" ? x < target : x <= target;
        }
        if (typeof x === "string") {
          const [a, b] = [x, n.v];
          return n.op === ">" ? a > b : n.op === ">=" ? a >= b : n.op === "<" ? a < b : a <= b;
        }
        return false;
      });
    }
  }
}

/** Exposed for the fake's own tests. */
export const __filterForTests = { parse: parseFilterString, evaluate: (src: string, d: Record<string, unknown>) => evalFilter(parseFilterString(src), d as Doc) };
