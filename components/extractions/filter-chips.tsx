"use client";

import { epochToIsoDate, filterKeys, type NumRange, type PageFilter, type PageFilterValue } from "@/lib/client/filter-codec";
import type { Messages } from "@/lib/i18n/en";
import type { Locale } from "@/lib/i18n/locale";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";
import { keyLabel, valueLabel } from "./registry-view";

export function describeValue(key: string, v: PageFilterValue, locale: Locale, t: Messages): string {
  const info = filterKeys().get(key);
  if (Array.isArray(v)) return v.map((x) => valueLabel(key, x, locale, t)).join(", ");
  if (typeof v === "boolean") return v ? t.extr.triYes : t.extr.triNo;
  if (typeof v === "string") return `“${v}”`;
  const r = v as NumRange;
  const show = (n: number) => (info?.control === "date_range" ? epochToIsoDate(n) : String(n));
  if (r.min !== undefined && r.max !== undefined) return `${show(r.min)} – ${show(r.max)}`;
  if (r.min !== undefined) return `≥ ${show(r.min)}`;
  return `≤ ${show(r.max!)}`;
}

/** Active filters as removable chips. */
export function FilterChips({ filter, onRemove, onClear }: { filter: PageFilter; onRemove: (key: string) => void; onClear: () => void }) {
  const { locale, t } = useI18n();
  const keys = Object.keys(filter);
  if (keys.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2" aria-label={t.extr.activeFilters} role="group">
      {keys.map((k) => {
        const label = `${keyLabel(k, locale)}: ${describeValue(k, filter[k], locale, t)}`;
        return (
          <span key={k} data-chip={k} className="inline-flex max-w-full items-center gap-1 rounded-full border border-brand/30 bg-brand-soft py-0.5 pr-1 pl-3 text-sm text-brand">
            <span className="truncate">{label}</span>
            <button
              type="button"
              onClick={() => onRemove(k)}
              aria-label={fmt(t.extr.removeChip, { label })}
              className="grid size-6 place-items-center rounded-full hover:bg-brand hover:text-on-brand"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2.2">
                <path d="m6 6 8 8M14 6l-8 8" />
              </svg>
            </button>
          </span>
        );
      })}
      <button type="button" onClick={onClear} className="text-sm text-muted underline hover:text-ink">
        {t.extr.clearAll}
      </button>
    </div>
  );
}
