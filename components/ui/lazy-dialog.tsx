"use client";

import { lazy, Suspense, type ComponentProps } from "react";
import type Modal from "./dialog";

// Radix's dialog (focus trap, scroll lock, portal: ~40 KB of script) is fetched the first time a dialog opens, or
// earlier through preloadDialog(), instead of with the first scripts of every page that merely may open one
// (/search).
const load = () => import("./dialog");
const LazyModal = lazy(load);

/** Start fetching the dialog's code, e.g. when the pointer or focus reaches the button that opens it. */
export function preloadDialog(): void {
  void load();
}

/**
 * A centred modal (`Modal` in dialog.tsx) mounted only while open. Closing unmounts it; focus goes back to what had
 * it when the dialog opened (dialog.tsx `useReturnFocus`), usually the button that opened it.
 */
export function LazyDialog(props: ComponentProps<typeof Modal>) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <LazyModal {...props} />
    </Suspense>
  );
}
