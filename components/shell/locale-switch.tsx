"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useI18n, writeLocaleCookie } from "@/lib/i18n/client";
import { LOCALES, type Locale } from "@/lib/i18n/locale";
import { cx } from "@/components/ui/cx";

/** EN / PL switch: stores the choice in a cookie and re-renders the server components in the new language. */
export function LocaleSwitch() {
  const { locale, t } = useI18n();
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  function choose(next: Locale) {
    if (next === locale) return;
    writeLocaleCookie(next);
    startTransition(() => router.refresh());
  }

  return (
    <div role="group" aria-label={t.header.locale} className="inline-flex rounded-control border border-line-strong p-0.5">
      {LOCALES.map((l) => (
        <button
          key={l}
          type="button"
          lang={l}
          aria-pressed={l === locale}
          // The visible code starts the accessible name (WCAG 2.5.3, label in name), the language's name follows.
          title={t.header.localeNames[l]}
          disabled={pending}
          onClick={() => choose(l)}
          className={cx(
            "rounded-[calc(var(--radius-control)-2px)] px-2 py-0.5 text-xs font-semibold uppercase",
            l === locale ? "bg-brand text-on-brand" : "text-muted hover:text-ink",
          )}
        >
          {l}
          <span className="sr-only"> {t.header.localeNames[l]}</span>
        </button>
      ))}
    </div>
  );
}
