import Link from "next/link";
import type { Messages } from "@/lib/i18n/en";

export function Footer({ t }: { t: Messages }) {
  return (
    <footer className="mt-16 border-t border-line bg-surface">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-6 text-sm text-muted">
        <p>{t.footer.text}</p>
        <ul className="flex gap-4">
          <li>
            <Link href="/about" className="hover:text-ink">
              {t.nav.about}
            </Link>
          </li>
          <li>
            <Link href="/status" className="hover:text-ink">
              {t.footer.status}
            </Link>
          </li>
        </ul>
      </div>
    </footer>
  );
}
