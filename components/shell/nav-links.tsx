"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useId, useRef, useState } from "react";
import { useI18n } from "@/lib/i18n/client";
import { cx } from "@/components/ui/cx";
import { useSessionUser } from "./user-context";

/**
 * Main navigation; the current section is marked with aria-current. From 768 px one row of links; below, a "Menu"
 * disclosure button opens them as a list (Escape closes it and returns focus to the button; following a link closes it).
 */
export function NavLinks() {
  const { t } = useI18n();
  const pathname = usePathname() ?? "/";
  const user = useSessionUser();
  const under = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);
  const items = [
    { href: "/search", label: t.nav.search, active: pathname === "/search" },
    { href: "/search/extractions", label: t.nav.extractions, active: under("/search/extractions") },
    { href: "/collections", label: t.nav.collections, active: under("/collections") },
    { href: "/topics", label: t.nav.analysis, active: under("/topics") || under("/judges") || under("/reasoning-lines") },
    ...(user ? [{ href: "/chat", label: t.nav.chat, active: under("/chat") }] : []),
    ...(user
      ? [{ href: "/extractions/jobs", label: t.nav.extractionJobs, active: under("/extractions") || under("/schemas") }]
      : []),
    ...(user ? [{ href: "/saved", label: t.nav.saved, active: under("/saved") }] : []),
    ...(user ? [{ href: "/history", label: t.nav.history, active: under("/history") }] : []),
    ...(user ? [{ href: "/settings", label: t.nav.settings, active: under("/settings") }] : []),
    ...(user?.role === "admin" ? [{ href: "/admin", label: t.nav.admin, active: under("/admin") }] : []),
  ];
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  // A followed link closes the menu (the header stays mounted across client navigations): state adjusted in render.
  if (openedAt !== pathname) {
    setOpenedAt(pathname);
    setOpen(false);
  }

  const link = (item: (typeof items)[number], stacked: boolean) => (
    <Link
      href={item.href}
      prefetch={false}
      aria-current={item.active ? "page" : undefined}
      className={cx(
        "rounded-control px-2 py-1.5 text-sm font-medium sm:px-3",
        stacked ? "block" : "inline-block",
        item.active ? "bg-brand-soft text-brand" : "text-muted hover:bg-sunken hover:text-ink",
      )}
    >
      {item.label}
    </Link>
  );
  return (
    <nav aria-label={t.nav.label}>
      <ul className="hidden items-center gap-1 whitespace-nowrap md:flex" data-testid="nav-row">
        {items.map((item) => (
          <li key={item.href}>{link(item, false)}</li>
        ))}
      </ul>
      <div
        className="md:hidden"
        onKeyDown={(e) => {
          if (e.key !== "Escape" || !open) return;
          e.preventDefault();
          setOpen(false);
          button.current?.focus();
        }}
      >
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={listId}
          data-testid="nav-menu-button"
          onClick={() => setOpen((o) => !o)}
          className="inline-flex items-center gap-2 rounded-control px-2 py-1.5 text-sm font-medium text-ink hover:bg-sunken"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
            {open ? <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" /> : <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" />}
          </svg>
          {t.nav.menu}
        </button>
        <ul id={listId} hidden={!open} className="mt-1 grid gap-0.5 border-t border-line pt-1" data-testid="nav-menu">
          {items.map((item) => (
            <li key={item.href}>{link(item, true)}</li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
