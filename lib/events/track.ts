/**
 * Browser side of product events (spec: Events, capture path): `track(name, properties)` queues an event; the queue
 * is posted to /api/events in batches of at most 20, every 5 s, and on page hide with `navigator.sendBeacon` (which
 * survives the page going away). Properties named email, password, token, secret, authorization or query are
 * stripped one level deep (the server refuses them outright: D-24). auth_* events are never sent from a browser
 * (D-25). Each event carries a device id kept in localStorage (D-23: the envelope's guest_session_id, not the metering
 * key), a tab session id kept in sessionStorage, the interface locale and the build's version.
 *
 * Everything here is best-effort: tracking never throws into the page and never blocks it.
 */

import { isForbiddenPropertyKey, type ClientEventName } from "@/lib/events/catalogue";

export const EVENTS_ENDPOINT = "/api/events";
/** Mirrors the server's EVENTS_MAX_BATCH (lib/config.ts), which enforces it. */
export const MAX_BATCH = 20;
export const FLUSH_INTERVAL_MS = 5_000;
/** Events kept while the network is down; older ones are dropped first. */
const MAX_QUEUE = 200;
/** localStorage key of the device id (D-23); topic clicks send it too (lib/client/topics-api.ts). */
export const DEVICE_KEY = "js.device_id";
const TAB_KEY = "js.tab_session_id";

export type Properties = Record<string, unknown>;

export interface QueuedEvent {
  name: string;
  properties: Properties;
  guest_session_id: string | null;
  session_id: string | null;
  surface: "web";
  locale: string;
  app_version: string;
}

/** What the tracker needs from the browser; injected so the logic is testable without one. */
export interface TrackerEnv {
  /** Post a JSON body; `beacon` when the page is going away. */
  send(body: string, opts: { beacon: boolean }): void;
  storage: { local: StorageLike | null; session: StorageLike | null };
  locale(): string;
  appVersion: string;
  uuid(): string;
  setInterval(fn: () => void, ms: number): unknown;
  onPageHide(fn: () => void): void;
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function isPlainObject(v: unknown): v is Properties {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/** Drop forbidden keys at the top level and inside directly nested objects (one level deep). */
export function stripForbidden(props: Properties): Properties {
  const out: Properties = {};
  for (const [k, v] of Object.entries(props)) {
    if (isForbiddenPropertyKey(k)) continue;
    if (isPlainObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).filter(([kk]) => !isForbiddenPropertyKey(kk)));
    } else {
      out[k] = v;
    }
  }
  return out;
}

function stableId(store: StorageLike | null, key: string, uuid: () => string): string | null {
  try {
    if (!store) return null;
    const existing = store.getItem(key);
    if (existing) return existing;
    const id = uuid();
    store.setItem(key, id);
    return id;
  } catch {
    // Storage can be disabled (private mode, policies): the event goes without the id.
    return null;
  }
}

export class Tracker {
  private queue: QueuedEvent[] = [];
  private started = false;

  constructor(private readonly env: TrackerEnv) {}

  track(name: string, properties: Properties = {}): void {
    try {
      if (name.startsWith("auth_")) return; // server-only events (D-25)
      this.start();
      this.queue.push({
        name,
        properties: stripForbidden(properties),
        guest_session_id: stableId(this.env.storage.local, DEVICE_KEY, this.env.uuid),
        session_id: stableId(this.env.storage.session, TAB_KEY, this.env.uuid),
        surface: "web",
        locale: this.env.locale(),
        app_version: this.env.appVersion,
      });
      if (this.queue.length > MAX_QUEUE) this.queue.splice(0, this.queue.length - MAX_QUEUE);
      if (this.queue.length >= MAX_BATCH) this.flush(false);
    } catch {
      // never break the page
    }
  }

  /** Send everything queued, in batches of at most MAX_BATCH. */
  flush(beacon: boolean): void {
    while (this.queue.length > 0) {
      const events = this.queue.splice(0, MAX_BATCH);
      try {
        this.env.send(JSON.stringify({ events }), { beacon });
      } catch {
        // dropped: events are best-effort
      }
    }
  }

  pending(): number {
    return this.queue.length;
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.env.setInterval(() => this.flush(false), FLUSH_INTERVAL_MS);
    this.env.onPageHide(() => this.flush(true));
  }
}

function browserEnv(): TrackerEnv {
  const storage = (get: () => Storage): StorageLike | null => {
    try {
      return get();
    } catch {
      return null;
    }
  };
  return {
    send(body, { beacon }) {
      if (beacon && typeof navigator.sendBeacon === "function") {
        if (navigator.sendBeacon(EVENTS_ENDPOINT, new Blob([body], { type: "application/json" }))) return;
      }
      void fetch(EVENTS_ENDPOINT, { method: "POST", headers: { "content-type": "application/json" }, body, keepalive: true, credentials: "same-origin" }).catch(
        () => undefined,
      );
    },
    storage: { local: storage(() => window.localStorage), session: storage(() => window.sessionStorage) },
    locale: () => document.documentElement.lang || navigator.language || "en",
    // Inlined at build time by next.config.ts `env`.
    appVersion: process.env.APP_VERSION ?? "unknown",
    uuid: () => crypto.randomUUID(),
    setInterval: (fn, ms) => window.setInterval(fn, ms),
    onPageHide(fn) {
      window.addEventListener("pagehide", fn);
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "hidden") fn();
      });
    },
  };
}

let tracker: Tracker | null = null;

/** Record a product event from the browser (no-op during server rendering). */
export function track(name: ClientEventName, properties: Properties = {}): void {
  if (typeof window === "undefined") return;
  tracker ??= new Tracker(browserEnv());
  tracker.track(name, properties);
}
