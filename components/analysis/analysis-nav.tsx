"use client";

/**
 * Sub-navigation of the analysis pages (Topics / Judges / Reasoning lines). Minimal version from the analysis-lines
 * branch; the analysis-topics branch owns this component, and the merge keeps one.
 */
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui/cx";
import { useI18n } from "@/lib/i18n/client";

/** The analysis sub-navigation shown on /topics, /judges and /reasoning-lines (issue 16). */
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
export function AnalysisNav() {
  const { t } = useI18n();
  const pathname = usePathname() ?? "/";
  const items = [
    { href: "/topics", label: t.nav.topics },
    { href: "/judges", label: t.nav.judges },
    { href: "/reasoning-lines", label: t.nav.reasoningLines },
  ];
  return (
    <nav aria-label={t.nav.analysis} className="mb-6">
      <ul className="flex flex-wrap gap-1 border-b border-line">
        {items.map((i) => {
          const active = pathname === i.href || pathname.startsWith(`${i.href}/`);
          return (
            <li key={i.href}>
              <Link
                href={i.href}
                prefetch={false}
                aria-current={active ? "page" : undefined}
                className={cx("inline-block px-3 py-2 text-sm font-medium", active ? "border-b-2 border-brand text-brand" : "text-muted hover:text-ink")}
              >
                {i.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
