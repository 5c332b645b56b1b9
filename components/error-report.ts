import { emit } from "@/lib/client/track";

const reported = new WeakSet<object>();

/** Emit error_boundary_triggered once per error object (spec: Events — error_name, message truncated to 200). */
export function reportBoundaryError(error: unknown): void {
  if (typeof error === "object" && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  emit("error_boundary_triggered", { error_name: name.slice(0, 100), message: message.slice(0, 200) });
}
