"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui/cx";
import { useI18n } from "@/lib/i18n/client";

/**
 * The admin sub-navigation: every admin page, including those other areas build (/admin/blog, /admin/publications,
 * /admin/messages, /admin/mail). The current page is marked with aria-current.
 */
export function AdminNav() {
  const { t } = useI18n();
  const path = usePathname();
  const N = t.admin.nav;
  const links = [
    { href: "/admin", label: N.overview },
    { href: "/admin/users", label: N.users },
    { href: "/admin/activity", label: N.activity },
    { href: "/admin/system", label: N.system },
    { href: "/admin/documents", label: N.documents },
    { href: "/admin/blog", label: N.blog },
    { href: "/admin/publications", label: N.publications },
    { href: "/admin/messages", label: N.messages },
    { href: "/admin/mail", label: N.mail },
    { href: "/admin/imports", label: N.imports },
  ];
  return (
    <nav aria-label={N.label} className="mb-6 overflow-x-auto border-b border-line">
      <ul className="flex gap-1 whitespace-nowrap">
        {links.map((l) => {
          const active = l.href === "/admin" ? path === "/admin" : path === l.href || path.startsWith(`${l.href}/`);
          return (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={active ? "page" : undefined}
                className={cx(
                  "inline-block border-b-2 px-3 py-2 text-sm",
                  active ? "border-brand font-medium text-ink" : "border-transparent text-muted hover:text-ink",
                )}
              >
                {l.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
