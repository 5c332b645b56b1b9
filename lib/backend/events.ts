import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { ApiError, type ErrorCode } from "@/lib/errors";
import { config } from "@/lib/config";
import { isForbiddenPropertyKey, isServerOnlyEvent, type EventName } from "@/lib/events/catalogue";
import { logger } from "@/lib/logger";
import { uuidSchema } from "@/lib/schema/uuid";

/**
 * Product events (spec: Events). The event table below is the allowlist: each name with the exact property keys it
 * may carry (strict: an unknown key is an error, D-24). A batch is validated whole: one bad event → 422 naming it
 * (index and name) and nothing is stored. user_id comes only from the caller's token, created_at only from the
 * database clock, and no event ever carries raw query text (search events carry its length).
 */

const count = z.number().int().min(0).max(1_000_000_000);
const mode = z.string().regex(/^[a-z_]{1,32}$/, "a lower-case mode name");
const documentId = uuidSchema;
const shortLabel = safeText().min(1).max(64);
const none = z.strictObject({});

export const EVENT_PROPERTIES = {
  auth_signed_up: none,
  auth_signed_in: none,
  auth_signed_out: none,
  search_submitted: z.strictObject({ result_count: count, query_length: count, mode }),
  search_zero_results: z.strictObject({ query_length: count, mode }),
  search_result_clicked: z.strictObject({ document_id: documentId, position: count }),
  judgment_viewed: z.strictObject({ document_id: documentId }),
  judgment_exported: z.strictObject({ format: shortLabel, count, preset: shortLabel }),
  judgment_copied_citation: z.strictObject({ document_id: documentId }),
  annotation_created: none,
  annotation_updated: none,
  annotation_deleted: none,
  chat_message_sent: z.strictObject({ message_length: count }),
  chat_response_received: z.strictObject({ duration_ms: count, sources_count: count }),
  chat_feedback_thumbs_up: none,
  chat_feedback_thumbs_down: none,
  collection_created: z.strictObject({ collection_id: uuidSchema }),
  collection_item_added: z.strictObject({ collection_id: uuidSchema, count: count.min(1) }),
  // message is truncated (not refused) to EVENTS_MESSAGE_MAX_CHARS before validation.
  error_boundary_triggered: z.strictObject({ error_name: safeText().min(1).max(100), message: safeText() }),
} as const satisfies Record<EventName, z.ZodType>; // every name of the shared catalogue, and no other

const Envelope = z.strictObject({
  name: safeText().min(1).max(64),
  properties: z.record(z.string(), z.unknown()).optional(),
  guest_session_id: uuidSchema.nullable().optional(),
  session_id: uuidSchema.nullable().optional(),
  surface: z.enum(["web", "api"]).optional(),
  locale: z
    .string()
    .max(35)
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "a BCP 47 language tag")
    .optional(),
  app_version: safeText().min(1).max(64).optional(),
});

const Batch = z.strictObject({ events: z.array(z.unknown()) });

/** A validated event before identity is stamped. */
export interface ClientEvent {
  name: EventName;
  properties: Record<string, unknown>;
  guest_session_id: string | null;
  session_id: string | null;
  locale: string | null;
  app_version: string | null;
}

/** A row for insert_app_events. */
export interface EventRow extends ClientEvent {
  user_id: string | null;
  surface: "web" | "api";
}

function invalid(code: Extract<ErrorCode, `EVENT_${string}`>, message: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(code, message, extra);
}

function issueText(e: z.ZodError): string {
  const i = e.issues[0];
  if (!i) return "invalid";
  const where = i.path.length ? `${i.path.join(".")}: ` : "";
  if (i.code === "unrecognized_keys") return `${where}unknown field(s) ${i.keys.join(", ")}`;
  return `${where}${i.message}`;
}

/**
 * Validate one event (client or server emitter). Throws ApiError 422 naming the event; `index` is its position in
 * the batch. `allowServerOnly` is true only for emitServerEvent.
 */
export function validateEvent(raw: unknown, index: number, opts: { allowServerOnly: boolean }): ClientEvent {
  const c = config();
  const label = (name: unknown) => (typeof name === "string" ? name.slice(0, 64) : null);
  const env = Envelope.safeParse(raw);
  const rawName = typeof raw === "object" && raw !== null ? label((raw as { name?: unknown }).name) : null;
  if (!env.success) {
    throw invalid("EVENT_INVALID", `Event ${index} (${rawName ?? "unnamed"}): ${issueText(env.error)}.`, { index, name: rawName });
  }
  const e = env.data;
  if (!(e.name in EVENT_PROPERTIES)) {
    throw invalid("EVENT_UNKNOWN", `Event ${index}: "${e.name}" is not an allowed event name.`, { index, name: e.name });
  }
  const name = e.name as EventName;
  if (isServerOnlyEvent(name) && !opts.allowServerOnly) {
    throw invalid("EVENT_NOT_ALLOWED", `Event ${index}: "${name}" is recorded by the server only.`, { index, name });
  }
  const props = { ...(e.properties ?? {}) };
  // D-24: the server refuses forbidden keys at the top level (the browser tracker strips them before sending).
  const forbidden = Object.keys(props).filter(isForbiddenPropertyKey);
  if (forbidden.length) {
    throw invalid("EVENT_FORBIDDEN_PROPERTY", `Event ${index} (${name}): property ${forbidden.join(", ")} is not allowed.`, { index, name });
  }
  const bytes = Buffer.byteLength(JSON.stringify(props), "utf8");
  if (bytes > c.EVENTS_MAX_PROPERTIES_BYTES) {
    throw invalid("EVENT_TOO_LARGE", `Event ${index} (${name}): properties are ${bytes} bytes, over the ${c.EVENTS_MAX_PROPERTIES_BYTES} byte limit.`, {
      index,
      name,
    });
  }
  if (name === "error_boundary_triggered" && typeof props.message === "string") {
    props.message = Array.from(props.message).slice(0, c.EVENTS_MESSAGE_MAX_CHARS).join("");
  }
  const parsed = EVENT_PROPERTIES[name].safeParse(props);
  if (!parsed.success) {
    throw invalid("EVENT_INVALID", `Event ${index} (${name}): properties.${issueText(parsed.error)}.`, { index, name });
  }
  return {
    name,
    properties: parsed.data as Record<string, unknown>,
    guest_session_id: e.guest_session_id ?? null,
    session_id: e.session_id ?? null,
    locale: e.locale ?? null,
    app_version: e.app_version ?? null,
  };
}

/** Validate a POSTed batch `{events: [...]}` at once (D-24): all valid, or a 422 and nothing stored. */
export function validateEventBatch(body: unknown): ClientEvent[] {
  const max = config().EVENTS_MAX_BATCH;
  const batch = Batch.safeParse(body);
  if (!batch.success) throw invalid("EVENT_BATCH_INVALID", `The batch must be {events: [...]}: ${issueText(batch.error)}.`);
  const { events } = batch.data;
  if (events.length === 0) throw invalid("EVENT_BATCH_INVALID", "The batch holds no events.");
  if (events.length > max) throw invalid("EVENT_BATCH_TOO_LARGE", `A batch holds at most ${max} events; this one has ${events.length}.`);
  return events.map((e, i) => validateEvent(e, i, { allowServerOnly: false }));
}

/**
 * Attach the caller's identity: user_id only from the verified token (spec: Authentication 8), surface from how the
 * caller authenticated, and the guest cookie as the fallback device id (D-23).
 */
export function stampEvents(
  events: ClientEvent[],
  who: { userId: string | null; surface: "web" | "api"; guestCookie: string | null },
): EventRow[] {
  const cookie = who.guestCookie && uuidSchema.safeParse(who.guestCookie).success ? who.guestCookie : null;
  return events.map((e) => ({ ...e, guest_session_id: e.guest_session_id ?? cookie, user_id: who.userId, surface: who.surface }));
}

/** Store rows (service role). Never throws: failures are logged, never surfaced to the user (spec: capture path). */
export async function writeEvents(serviceDb: DbClient, rows: EventRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  try {
    const { data, error } = await serviceDb.rpc("insert_app_events", { p_events: jsonArg(rows) });
    if (error) {
      logger.error({ code: error.code, message: error.message, count: rows.length }, "app events not stored");
      return 0;
    }
    return typeof data === "number" ? data : 0;
  } catch (e) {
    logger.error({ err: e instanceof Error ? e.message : String(e), count: rows.length }, "app events not stored");
    return 0;
  }
}

/**
 * Emit an event from server code, e.g. the sign-out route: `await emitServerEvent({ name: "auth_signed_out", userId })`.
 * Same validation as client events, server-only names allowed; fire-and-forget (never throws).
 */
export async function emitServerEvent(e: {
  name: EventName;
  userId: string | null;
  properties?: Record<string, unknown>;
  surface?: "web" | "api";
  db?: DbClient;
}): Promise<void> {
  try {
    const valid = validateEvent({ name: e.name, properties: e.properties ?? {} }, 0, { allowServerOnly: true });
    const db = e.db ?? (await defaultServiceClient());
    await writeEvents(db, [{ ...valid, user_id: e.userId, surface: e.surface ?? "web" }]);
  } catch (err) {
    logger.error({ err: err instanceof Error ? err.message : String(err), name: e.name }, "server event not emitted");
  }
}

async function defaultServiceClient(): Promise<DbClient> {
  // Imported lazily: the Supabase server module pulls in next/headers, which this module otherwise avoids.
  const { createServiceClient } = await import("@/lib/supabase/server");
  return createServiceClient();
}
