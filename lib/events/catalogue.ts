/**
 * The product-event catalogue shared by the browser tracker (lib/events/track.ts) and the server's validator
 * (lib/backend/events.ts): the event names (spec: Events, event names) and the property keys no event may carry
 * (rule 3, D-24). Plain data with no imports, so the browser bundle can use it without pulling in server code.
 */

export const EVENT_NAMES = [
  "auth_signed_up",
  "auth_signed_in",
  "auth_signed_out",
  "search_submitted",
  "search_zero_results",
  "search_result_clicked",
  "judgment_viewed",
  "judgment_exported",
  "judgment_copied_citation",
  "annotation_created",
  "annotation_updated",
  "annotation_deleted",
  "chat_message_sent",
  "chat_response_received",
  "chat_feedback_thumbs_up",
  "chat_feedback_thumbs_down",
  "collection_created",
  "collection_item_added",
  "error_boundary_triggered",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** Names only the server emits (database triggers, the sign-out route); refused on /api/events from anyone (D-25). */
export const isServerOnlyEvent = (name: string): boolean => name.startsWith("auth_");

/** Event names a browser may send: the allowlist without the server-only auth_* names. */
export type ClientEventName = Exclude<EventName, `auth_${string}`>;

/** Keys that must never appear in properties (rule 3; D-24: exact names, case-insensitive). */
export const FORBIDDEN_PROPERTY_KEYS = ["email", "password", "token", "secret", "authorization", "query"] as const;

const FORBIDDEN = new Set<string>(FORBIDDEN_PROPERTY_KEYS);

/** Whether a property key is one of the forbidden ones, in any letter case. */
export const isForbiddenPropertyKey = (key: string): boolean => FORBIDDEN.has(key.toLowerCase());
