"use client";

import * as RadixDialog from "@radix-ui/react-dialog";
import { useRef, type ReactNode } from "react";
import { cx } from "./cx";

export const DialogRoot = RadixDialog.Root;

/**
 * Focus goes back to what had it when the dialog opened. Radix returns it to a Dialog.Trigger, and our dialogs are
 * opened by ordinary buttons (or by the page itself), so without this it fell to the document body on close.
 */
function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    // Runs as the content mounts, before Radix moves focus into it: the opener still has focus.
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const el = opener.current;
      opener.current = null;
      if (el?.isConnected) {
        event.preventDefault();
        el.focus();
      }
    },
  };
}

/** A centred modal (Radix: focus trap, Escape, labelled by its title and description). */
export function DialogContent({
  title,
  description,
  children,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  const returnFocus = useReturnFocus();
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="fixed inset-0 z-40 bg-ink/40" />
      <RadixDialog.Content
        {...returnFocus}
        className={cx(
          "fixed top-1/2 left-1/2 z-50 max-h-[90dvh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto",
          "rounded-card border border-line bg-surface p-5 shadow-pop",
          className,
        )}
        {...(description ? {} : { "aria-describedby": undefined })}
      >
        <RadixDialog.Title className="text-lg font-semibold">{title}</RadixDialog.Title>
        {description ? <RadixDialog.Description className="mt-1 text-sm text-muted">{description}</RadixDialog.Description> : null}
        <div className="mt-4">{children}</div>
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}

/**
 * A whole modal (root and content, open by its owner), the default export so `lazy-dialog.tsx` can load it on first
 * open: pages that only may open a dialog then do not load Radix's dialog code with their first scripts.
 */
export default function Modal({
  open,
  onOpenChange,
  ...content
}: { open: boolean; onOpenChange: (open: boolean) => void } & Parameters<typeof DialogContent>[0]) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <DialogContent {...content} />
    </RadixDialog.Root>
  );
}

/** A side sheet (used by the filter drawer): full width on phones, a right-hand panel on wider screens. */
export function SheetContent({
  title,
  description,
  children,
  footer,
  closeLabel,
}: {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  closeLabel: string;
}) {
  const returnFocus = useReturnFocus();
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="fixed inset-0 z-40 bg-ink/40" />
      <RadixDialog.Content
        {...returnFocus}
        className="fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col border-l border-line bg-surface shadow-pop"
        {...(description ? {} : { "aria-describedby": undefined })}
      >
        <div className="relative border-b border-line px-5 py-4 pr-14">
          <RadixDialog.Close aria-label={closeLabel} className="absolute top-3 right-3 grid size-9 place-items-center rounded-control text-muted hover:bg-sunken hover:text-ink">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="m5 5 10 10M15 5 5 15" />
            </svg>
          </RadixDialog.Close>
          <RadixDialog.Title className="text-lg font-semibold">{title}</RadixDialog.Title>
          {description ? <RadixDialog.Description className="mt-1 text-sm text-muted">{description}</RadixDialog.Description> : null}
        </div>
        <div className="flex-1 overflow-y-auto px-5 py-4">{children}</div>
        {footer ? <div className="border-t border-line px-5 py-3">{footer}</div> : null}
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}
