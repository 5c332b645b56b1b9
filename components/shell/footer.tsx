import Link from "next/link";
import type { Messages } from "@/lib/i18n/en";

export function Footer({ t }: { t: Messages }) {
  return (
    <footer className="mt-16 border-t border-line bg-surface">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-6 text-sm text-muted">
        <p>{t.footer.text}</p>
        <ul className="flex flex-wrap gap-4">
          {[
            { href: "/about", label: t.nav.about },
            { href: "/blog", label: t.nav.blog },
            { href: "/publications", label: t.nav.publications },
            { href: "/dashboard", label: t.nav.dashboard },
            { href: "/developers", label: t.nav.developers },
            { href: "/contact", label: t.nav.contact },
            { href: "/status", label: t.footer.status },
          ].map((l) => (
            <li key={l.href}>
              <Link href={l.href} prefetch={false} className="hover:text-ink">
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
