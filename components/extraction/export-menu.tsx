"use client";

import * as Popover from "@radix-ui/react-popover";
import { useRef, useState, type KeyboardEvent } from "react";
import { buttonClass } from "@/components/ui/button";
import { ChevronDown } from "@/components/ui/chevron-down";

export interface ExportItem {
  href: string;
  label: string;
}

/**
 * The job page's export menu (WAI-ARIA menu button): the trigger opens a `menu` of download links and focuses the
 * first; Arrow keys, Home and End move between them, Enter downloads, Escape closes and returns focus to the trigger
 * (Radix's popover), Tab closes. Radix has no menu primitive installed here, so the popover carries the menu roles.
 */
export function ExportMenu({ label, items }: { label: string; items: ExportItem[] }) {
  const [open, setOpen] = useState(false);
  const refs = useRef<(HTMLAnchorElement | null)[]>([]);
  const focusAt = (i: number) => refs.current[(i + items.length) % items.length]?.focus();
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = refs.current.findIndex((el) => el === document.activeElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      focusAt(moves[e.key]);
    } else if (e.key === "Tab") {
      setOpen(false);
    }
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        aria-haspopup="menu"
        className={buttonClass("secondary", "sm")}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {label}
        <ChevronDown />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          role="menu"
          aria-label={label}
          align="start"
          sideOffset={4}
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            refs.current[0]?.focus();
          }}
          onKeyDown={onKeyDown}
          className="z-40 min-w-44 rounded-card border border-line bg-surface p-1 shadow-pop"
        >
          {items.map((it, i) => (
            <a
              key={it.href}
              ref={(el) => {
                refs.current[i] = el;
              }}
              role="menuitem"
              tabIndex={-1}
              href={it.href}
              download
              onClick={() => setOpen(false)}
              className="block rounded-card px-3 py-2 text-sm hover:bg-sunken focus:bg-sunken focus:outline-none"
            >
              {it.label}
            </a>
          ))}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
