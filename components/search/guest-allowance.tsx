"use client";

import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { LazyDialog } from "@/components/ui/lazy-dialog";
import { Notice } from "@/components/ui/notice";
import type { GuestAllowance } from "@/lib/client/search-api";
import { useI18n } from "@/lib/i18n/client";
import { formatNumber, plural } from "@/lib/i18n/locale";

/** The guest counter, and the upgrade nudge when the server says so (2 searches left, spec: Limits). */
export function GuestBanner({ guest }: { guest: GuestAllowance }) {
  const { locale, t } = useI18n();
  const counter = plural(locale, guest.limit, t.search.guestCounter, { remaining: formatNumber(locale, guest.remaining) });
  if (guest.nudge && guest.remaining > 0) {
    return (
      <Notice tone="warn" title={plural(locale, guest.remaining, t.search.nudgeTitle)}>
        <p data-testid="guest-counter">{counter}</p>
        <p className="mt-1">{t.search.nudgeBody}</p>
        <p className="mt-2 flex gap-2">
          <Link href="/sign-up?next=/search" className={buttonClass("primary", "sm")}>
            {t.search.limitSignUp}
          </Link>
          <Link href="/sign-in?next=/search" className={buttonClass("secondary", "sm")}>
            {t.search.limitSignIn}
          </Link>
        </p>
      </Notice>
    );
  }
  return (
    <p data-testid="guest-counter" role="status" className="text-sm text-muted">
      {counter}
    </p>
  );
}

/** Shown when the allowance is spent (429 GUEST_LIMIT_REACHED). */
export function GuestLimitDialog({ open, onOpenChange, limit }: { open: boolean; onOpenChange: (v: boolean) => void; limit: number }) {
  const { locale, t } = useI18n();
  return (
    <LazyDialog open={open} onOpenChange={onOpenChange} title={t.search.limitTitle} description={plural(locale, limit, t.search.limitBody)}>
      <div className="flex flex-wrap justify-end gap-2" data-testid="guest-limit-dialog">
        <Link href="/sign-in?next=/search" className={buttonClass("secondary")}>
          {t.search.limitSignIn}
        </Link>
        <Link href="/sign-up?next=/search" className={buttonClass("primary")}>
          {t.search.limitSignUp}
        </Link>
      </div>
    </LazyDialog>
  );
}
