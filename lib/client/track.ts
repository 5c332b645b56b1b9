/**
 * The page-side emitter of product events (spec: Events). Components call `emit` so the capture path can be swapped
 * without touching them; it forwards to the web tier's batching client in lib/events/track.ts.
 */
import type { ClientEventName } from "@/lib/events/catalogue";
import { track } from "@/lib/events/track";
/** The events the pages emit today: a subset of the shared catalogue, so a misspelt name does not compile. */
export type EventName = Extract<
  ClientEventName,
  | "search_submitted"
  | "search_zero_results"
  | "search_result_clicked"
  | "judgment_viewed"
  | "judgment_exported"
  | "collection_created"
  | "collection_item_added"
  | "error_boundary_triggered"
>;

type Props = Record<string, string | number | boolean | null>;

declare global {
  interface Window {
    /** The events this page emitted, newest last (read by the Playwright journeys). */
    __emittedEvents?: { name: EventName; properties: Props }[];
  }
}

export function emit(name: EventName, properties: Props): void {
  // Fire-and-forget: an analytics failure must never break a user flow.
  try {
    if (typeof window === "undefined") return;
    (window.__emittedEvents ??= []).push({ name, properties });
    track(name, properties);
  } catch {
    // ignore
  }
}
