import { useSyncExternalStore } from "react";

const noop = () => () => undefined;

/** False during server rendering and hydration, true once React owns the page (forms wait for it). */
export function useHydrated(): boolean {
  return useSyncExternalStore(noop, () => true, () => false);
}
