import type { Tone } from "@/components/ui/badge";

/** Badge tone of a topic's trend. */
export const TREND_TONE: Record<"emerging" | "stable" | "declining", Tone> = { emerging: "ok", stable: "neutral", declining: "warn" };
