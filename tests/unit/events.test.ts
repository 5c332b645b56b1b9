import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { stampEvents, validateEventBatch, validateEvent } from "@/lib/backend/events";
import { EVENT_NAMES, type EventName } from "@/lib/events/catalogue";
import { MAX_BATCH, stripForbidden, Tracker, type TrackerEnv } from "@/lib/events/track";

const UUID = "0b6e3c2a-4d1f-4a8e-9c3b-2f1e0d9c8b7a";
const UUID2 = "1c7f4d3b-5e2a-4b9f-8d4c-3a2f1e0d9c8b";

/** Valid properties for every allowlisted name (spec: Events, event names). */
const VALID_PROPERTIES: Record<EventName, Record<string, unknown>> = {
  auth_signed_up: {},
  auth_signed_in: {},
  auth_signed_out: {},
  search_submitted: { result_count: 12, query_length: 17, mode: "hybrid" },
  search_zero_results: { query_length: 9, mode: "text" },
  search_result_clicked: { document_id: UUID, position: 3 },
  judgment_viewed: { document_id: UUID },
  judgment_exported: { format: "csv", count: 40, preset: "default" },
  judgment_copied_citation: { document_id: UUID },
  annotation_created: {},
  annotation_updated: {},
  annotation_deleted: {},
  chat_message_sent: { message_length: 120 },
  chat_response_received: { duration_ms: 2400, sources_count: 5 },
  chat_feedback_thumbs_up: {},
  chat_feedback_thumbs_down: {},
  collection_created: { collection_id: UUID2 },
  collection_item_added: { collection_id: UUID2, count: 2 },
  error_boundary_triggered: { error_name: "TypeError", message: "x is undefined" },
};

const envelope = { guest_session_id: UUID, session_id: UUID2, surface: "web", locale: "pl-PL", app_version: "0.1.0" };
const ev = (name: string, properties: Record<string, unknown> = VALID_PROPERTIES[name as EventName] ?? {}, extra: Record<string, unknown> = {}) => ({
  name,
  properties,
  ...envelope,
  ...extra,
});

function rejection(body: unknown): ApiError {
  try {
    validateEventBatch(body);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("the batch was accepted");
}

describe("event batch validation (spec: Events; D-24)", () => {
  const clientNames = EVENT_NAMES.filter((n) => !n.startsWith("auth_"));

  it.each(clientNames)("accepts %s with its properties", (name) => {
    const [e] = validateEventBatch({ events: [ev(name)] });
    expect(e.name).toBe(name);
    expect(e.properties).toEqual(VALID_PROPERTIES[name]);
  });

  it("accepts a full batch of 20 mixed events", () => {
    const events = Array.from({ length: MAX_BATCH }, (_, i) => ev(clientNames[i % clientNames.length]));
    expect(validateEventBatch({ events })).toHaveLength(20);
  });

  it.each(EVENT_NAMES.filter((n) => n.startsWith("auth_")))("refuses %s from a client (D-25)", (name) => {
    const err = rejection({ events: [ev("judgment_viewed"), ev(name)] });
    expect(err.status).toBe(422);
    expect(err.code).toBe("EVENT_NOT_ALLOWED");
    expect(err.extra).toMatchObject({ index: 1, name });
  });

  it.each([
    ["an unknown name", { events: [ev("page_scrolled", {})] }, "EVENT_UNKNOWN"],
    ["an unknown property", { events: [ev("judgment_viewed", { document_id: UUID, extra: 1 })] }, "EVENT_INVALID"],
    ["an unknown envelope field", { events: [ev("judgment_viewed", undefined, { referrer: "x" })] }, "EVENT_INVALID"],
    ["user_id in the body", { events: [ev("judgment_viewed", undefined, { user_id: UUID })] }, "EVENT_INVALID"],
    ["a client timestamp", { events: [ev("judgment_viewed", undefined, { created_at: "2020-01-01T00:00:00Z" })] }, "EVENT_INVALID"],
    ["a missing property", { events: [ev("judgment_viewed", {})] }, "EVENT_INVALID"],
    ["a wrongly typed property", { events: [ev("search_submitted", { result_count: "12", query_length: 3, mode: "text" })] }, "EVENT_INVALID"],
    ["properties on a none-property event", { events: [ev("annotation_created", { note: "x" })] }, "EVENT_INVALID"],
    ["a raw query property", { events: [ev("search_submitted", { result_count: 1, query_length: 3, mode: "text", query: "theft" })] }, "EVENT_FORBIDDEN_PROPERTY"],
    ["a forbidden key in other case", { events: [ev("judgment_viewed", { document_id: UUID, Email: "a@b.c" })] }, "EVENT_FORBIDDEN_PROPERTY"],
    ["21 events", { events: Array.from({ length: 21 }, () => ev("judgment_viewed")) }, "EVENT_BATCH_TOO_LARGE"],
    ["no events", { events: [] }, "EVENT_BATCH_INVALID"],
    ["a body that is not a batch", [ev("judgment_viewed")], "EVENT_BATCH_INVALID"],
    ["extra batch keys", { events: [ev("judgment_viewed")], user_id: UUID }, "EVENT_BATCH_INVALID"],
    ["a bad guest id", { events: [ev("judgment_viewed", undefined, { guest_session_id: "x" })] }, "EVENT_INVALID"],
    ["a bad surface", { events: [ev("judgment_viewed", undefined, { surface: "ios" })] }, "EVENT_INVALID"],
  ])("refuses %s with a 422 naming the problem", (_label, body, code) => {
    const err = rejection(body);
    expect(err.status).toBe(422);
    expect(err.code).toBe(code);
    expect(err.message.length).toBeGreaterThan(10);
  });

  it("refuses more than 8 KB of properties and names the event", () => {
    const big = { error_name: "E".repeat(50), message: "m", pad: "x".repeat(9 * 1024) };
    const err = rejection({ events: [ev("judgment_viewed"), ev("error_boundary_triggered", big)] });
    expect(err.code).toBe("EVENT_TOO_LARGE");
    expect(err.extra).toMatchObject({ index: 1, name: "error_boundary_triggered" });
  });

  it("truncates the error message to 200 characters instead of refusing it", () => {
    const [e] = validateEventBatch({ events: [ev("error_boundary_triggered", { error_name: "RangeError", message: "ż".repeat(500) })] });
    expect(Array.from(e.properties.message as string)).toHaveLength(200);
  });

  it("server emitters may send auth_* but follow the same property rules", () => {
    expect(validateEvent({ name: "auth_signed_out", properties: {} }, 0, { allowServerOnly: true }).name).toBe("auth_signed_out");
    expect(() => validateEvent({ name: "auth_signed_out", properties: { token: "x" } }, 0, { allowServerOnly: true })).toThrow(ApiError);
  });

  it("stamps user_id and surface from the caller, and the guest cookie only as fallback device id (D-23)", () => {
    const events = validateEventBatch({ events: [ev("judgment_viewed"), ev("judgment_viewed", undefined, { guest_session_id: null })] });
    const rows = stampEvents(events, { userId: UUID2, surface: "api", guestCookie: "9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a" });
    expect(rows[0]).toMatchObject({ user_id: UUID2, surface: "api", guest_session_id: UUID });
    expect(rows[1].guest_session_id).toBe("9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a");
  });
});

function fakeEnv() {
  const sent: { body: { events: Array<Record<string, unknown>> }; beacon: boolean }[] = [];
  const timers: Array<() => void> = [];
  const pageHide: Array<() => void> = [];
  const mem = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
  };
  let n = 0;
  const env: TrackerEnv = {
    send: (body, { beacon }) => void sent.push({ body: JSON.parse(body), beacon }),
    storage: { local: mem(), session: mem() },
    locale: () => "en-GB",
    appVersion: "1.2.3",
    uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
    setInterval: (fn) => void timers.push(fn),
    onPageHide: (fn) => void pageHide.push(fn),
  };
  return { env, sent, tick: () => timers.forEach((f) => f()), hide: () => pageHide.forEach((f) => f()) };
}

describe("browser tracker", () => {
  it("queues, flushes on the interval, and batches at most 20", () => {
    const f = fakeEnv();
    const t = new Tracker(f.env);
    for (let i = 0; i < 45; i++) t.track("judgment_viewed", { document_id: UUID });
    // Two full batches went at once; the rest waits for the timer.
    expect(f.sent.map((s) => s.body.events.length)).toEqual([20, 20]);
    expect(t.pending()).toBe(5);
    f.tick();
    expect(f.sent.map((s) => s.body.events.length)).toEqual([20, 20, 5]);
    expect(f.sent.every((s) => !s.beacon)).toBe(true);
  });

  it("flushes with sendBeacon on page hide", () => {
    const f = fakeEnv();
    const t = new Tracker(f.env);
    t.track("chat_message_sent", { message_length: 4 });
    f.hide();
    expect(f.sent).toHaveLength(1);
    expect(f.sent[0].beacon).toBe(true);
  });

  it("sends the envelope: stable device id, tab session id, locale, version; never auth_*", () => {
    const f = fakeEnv();
    const t = new Tracker(f.env);
    t.track("auth_signed_in");
    t.track("judgment_viewed", { document_id: UUID });
    t.track("judgment_viewed", { document_id: UUID });
    f.tick();
    const [a, b] = f.sent[0].body.events;
    expect(f.sent[0].body.events).toHaveLength(2);
    expect(a).toMatchObject({ name: "judgment_viewed", surface: "web", locale: "en-GB", app_version: "1.2.3" });
    expect(a.guest_session_id).toBe(b.guest_session_id);
    expect(a.session_id).toBe(b.session_id);
    expect(a.session_id).not.toBe(a.guest_session_id);
    // What the tracker sends is what the server accepts.
    expect(validateEventBatch(f.sent[0].body)).toHaveLength(2);
  });

  it("strips forbidden keys one level deep", () => {
    expect(
      stripForbidden({ document_id: UUID, EMAIL: "a@b.c", query: "q", nested: { token: "t", ok: 1, deeper: { secret: "kept" } }, Authorization: "x" }),
    ).toEqual({ document_id: UUID, nested: { ok: 1, deeper: { secret: "kept" } } });
  });
});
