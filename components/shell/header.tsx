import Link from "next/link";
import type { Messages } from "@/lib/i18n/en";
import { buttonClass } from "@/components/ui/button";
import { LocaleSwitch } from "./locale-switch";
import { NavLinks } from "./nav-links";
import { SignOutButton } from "./sign-out-button";
import type { SessionUser } from "@/lib/api/pages";

/**
 * Site header: brand, search box (a plain GET form to /search, so it works before any script loads), navigation,
 * locale switch and the signed-in state read from the session on the server.
 */
export function Header({ t, user }: { t: Messages; user: SessionUser | null }) {
  return (
    <header className="sticky top-0 z-30 border-b border-line bg-surface/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2">
        <Link href="/" className="flex items-center gap-2 font-semibold text-brand" aria-label={t.nav.home}>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8">
            <path d="M12 3v18M5 7h14M7 7l-3 7a3 3 0 0 0 6 0L7 7Zm10 0-3 7a3 3 0 0 0 6 0l-3-7ZM8 21h8" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span>{t.meta.siteName}</span>
        </Link>

        <form action="/search" method="get" role="search" className="order-last flex w-full min-w-0 gap-2 md:order-none md:w-auto md:flex-1">
          <label htmlFor="header-q" className="sr-only">
            {t.header.searchLabel}
          </label>
          <input
            id="header-q"
            name="q"
            type="search"
            placeholder={t.header.searchPlaceholder}
            maxLength={500}
            className="h-9 min-w-0 flex-1 rounded-control border border-line-strong bg-surface px-3 text-sm placeholder:text-subtle"
          />
          <button type="submit" className={buttonClass("secondary", "sm", "h-9")}>
            {t.header.searchSubmit}
          </button>
        </form>

        <div className="ml-auto flex items-center gap-2">
          <LocaleSwitch />
          {user ? (
            <div className="flex items-center gap-1" data-testid="signed-in">
              <span className="hidden max-w-48 truncate text-sm text-muted sm:inline" title={user.email ?? undefined}>
                <span className="sr-only">{t.header.signedInAs.split("{email}")[0]}</span>
                {user.email}
              </span>
              <SignOutButton />
            </div>
          ) : (
            <div className="flex items-center gap-1" data-testid="signed-out">
              <Link href="/sign-in" className={buttonClass("ghost", "sm")}>
                {t.header.signIn}
              </Link>
              <Link href="/sign-up" className={buttonClass("primary", "sm")}>
                {t.header.signUp}
              </Link>
            </div>
          )}
        </div>
      </div>
      <div className="mx-auto max-w-6xl px-4 pb-2">
        <NavLinks />
      </div>
    </header>
  );
}
