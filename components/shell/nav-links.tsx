"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useI18n } from "@/lib/i18n/client";
import { cx } from "@/components/ui/cx";
import { useSessionUser } from "./user-context";

/** Main navigation; the current section is marked with aria-current. */
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
    ...(user ? [{ href: "/settings", label: t.nav.settings, active: under("/settings") }] : []),
    ...(user?.role === "admin" ? [{ href: "/admin", label: t.nav.admin, active: under("/admin") }] : []),
  ];
  return (
    <nav aria-label={t.nav.label} className="-mx-1 overflow-x-auto [scrollbar-width:none]">
      <ul className="flex items-center gap-1 whitespace-nowrap">
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              prefetch={false}
              aria-current={item.active ? "page" : undefined}
              className={cx(
                "inline-block rounded-control px-2 py-1.5 text-sm font-medium sm:px-3",
                item.active ? "bg-brand-soft text-brand" : "text-muted hover:bg-sunken hover:text-ink",
              )}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
