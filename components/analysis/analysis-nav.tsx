"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui/cx";
import { useI18n } from "@/lib/i18n/client";

/** The analysis sub-navigation shown on /topics, /judges and /reasoning-lines. */
export function AnalysisNav() {
  const { t } = useI18n();
  const path = usePathname();
  const N = t.analysis.topics.nav;
  const links = [
    { href: "/topics", label: N.topics },
    { href: "/judges", label: N.judges },
    { href: "/reasoning-lines", label: N.lines },
  ];
  return (
    <nav aria-label={N.label} className="mb-6 border-b border-line">
      <ul className="-mb-px flex flex-wrap gap-1">
        {links.map((l) => {
          const current = path === l.href || path.startsWith(`${l.href}/`);
          return (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={current ? "page" : undefined}
                className={cx(
                  "inline-block border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-focus",
                  current ? "border-brand text-brand" : "border-transparent text-muted hover:text-ink",
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
