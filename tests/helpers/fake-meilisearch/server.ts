/**
 * The fake Meilisearch HTTP server: a real node:http server on 127.0.0.1 (random port) with request recording,
 * injected failures, routing of the documented routes, the asynchronous task queue, and the index, settings and
 * document routes; search and similar are search.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { projectDocument, validateVectors } from "./documents";
import { evalFilter, parseFilterParam, type FNode } from "./filter";
import {
  MeiliError,
  applySettingsPatch,
  clone,
  defaultSettings,
  now,
  type Doc,
  type Index,
  type Injection,
  type Json,
  type RecordedRequest,
  type Task,
  type TaskFailure,
} from "./model";
import { searchIndex, similarDocuments } from "./search";

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
        return [200, searchIndex(this.mustIndex(uid), (body ?? {}) as Record<string, unknown>)];
      case "POST /indexes/:id/similar":
        return [200, similarDocuments(this.mustIndex(uid), (body ?? {}) as Record<string, unknown>)];
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
    return projectDocument(idx, d, fields ? fields.split(",") : ["*"], retrieveVectors);
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
      results: docs.slice(offset, offset + limit).map((d) => projectDocument(idx, d, fields, b.retrieveVectors === true)),
      offset,
      limit,
      total: docs.length,
    };
  }
}
