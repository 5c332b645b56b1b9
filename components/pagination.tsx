"use client";

import { Button } from "@/components/ui/button";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";

/** Previous / next with the current page, as a labelled navigation landmark. */
export function Pagination({ page, pages, onPage, label }: { page: number; pages: number; onPage: (p: number) => void; label: string }) {
  const { t } = useI18n();
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-2">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← {t.common.previous}
      </Button>
      <span className="text-sm text-muted" aria-current="page">
        {fmt(t.common.pageOf, { page, pages: Math.max(pages, page) })}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t.common.next} →
      </Button>
    </nav>
  );
}
