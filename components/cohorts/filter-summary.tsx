"use client";

import { keyLabel, valueLabel } from "@/components/extractions/registry-view";
import { useI18n } from "@/lib/i18n/client";
import { formatNumber } from "@/lib/i18n/locale";

function describe(key: string, value: unknown, label: (v: string) => string, num: (n: number) => string, yes: string, no: string): string {
  if (Array.isArray(value)) return value.map((v) => label(String(v))).join(", ");
  if (typeof value === "boolean") return value ? yes : no;
  if (typeof value === "number") return num(value);
  if (typeof value === "string") return value;
  if (value && typeof value === "object") {
    const r = value as Record<string, unknown>;
    const lo = r.min ?? r.from;
    const hi = r.max ?? r.to;
    const show = (v: unknown) => (typeof v === "number" ? num(v) : typeof v === "string" ? v : "");
    return `${show(lo) || "…"} – ${show(hi) || "…"}`;
  }
  return key;
}

/** A filter object as labelled chips (field: values), in the interface language; codes never reach the page. */
export function FilterSummary({ filters, emptyText }: { filters: Record<string, unknown>; emptyText: string }) {
  const { locale, t } = useI18n();
  const keys = Object.keys(filters).sort();
  if (!keys.length) return <p className="text-sm text-muted">{emptyText}</p>;
  return (
    <ul className="flex flex-wrap gap-2" data-testid="filter-summary">
      {keys.map((k) => (
        <li key={k} className="rounded-full bg-sunken px-3 py-1 text-sm">
          <span className="font-medium">{keyLabel(k, locale)}:</span>{" "}
          {describe(k, filters[k], (v) => valueLabel(k, v, locale, t), (n) => formatNumber(locale, n), t.common.yes, t.common.no)}
        </li>
      ))}
    </ul>
  );
}
