"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Input } from "@/components/ui/field";
import { lookupProvisions } from "@/lib/client/extractions-api";
import { useI18n } from "@/lib/i18n/client";
import { formatNumber } from "@/lib/i18n/locale";
import type { ControlProps } from "./filter-controls";
import { keyLabel, valueLabel } from "./registry-view";

/**
 * The `cites` filter's control: provisions found by what a researcher types ("279 § 1 kk", "theft act") through
 * GET /api/legislation?q= (the citator's lookup, with how many judgments apply each), chosen as an any-of list of
 * canonical ids. Its values are not facets: a cohort's cites hold every provision with its ancestors.
 */
export function ProvisionPicker({ info, value, onChange }: ControlProps) {
  const { locale, t } = useI18n();
  const id = useId();
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const selected = Array.isArray(value) ? value : [];
  const found = useQuery({
    queryKey: ["legislation-lookup", q],
    queryFn: ({ signal }) => lookupProvisions(q, signal),
    enabled: q.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
  const set = (v: string, on: boolean) => {
    const next = on ? [...new Set([...selected, v])] : selected.filter((x) => x !== v);
    onChange(next.length ? next : undefined); // D-09: an empty selection is left out
  };
  const results = (found.data ?? []).filter((r) => !selected.includes(r.id));
  const row = (v: string, on: boolean, count?: number) => (
    <li key={v} data-value={v}>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 shrink-0 accent-brand" checked={on} onChange={(e) => set(v, e.target.checked)} />
        <span className="min-w-0 flex-1 break-words">{valueLabel(info.key, v, locale, t)}</span>
        {count !== undefined ? (
          <span className="text-xs text-muted tabular-nums" title={t.citations.pickerCount}>
            {formatNumber(locale, count)}
          </span>
        ) : null}
      </label>
    </li>
  );
  return (
    <div className="space-y-2" data-testid="provision-picker">
      <p className="text-xs text-muted">{t.citations.pickerHint}</p>
      {selected.length ? <ul className="space-y-1">{selected.map((v) => row(v, true))}</ul> : null}
      <label htmlFor={id} className="sr-only">
        {keyLabel(info.key, locale)}: {t.citations.pickerSearch}
      </label>
      <Input
        id={id}
        type="search"
        className="h-8"
        placeholder={t.citations.pickerPlaceholder}
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={200}
      />
      {q && found.isError ? <p className="text-xs text-danger">{t.citations.pickerError}</p> : null}
      {q && found.isPending ? <p className="text-xs text-muted">{t.citations.loading}</p> : null}
      {q && found.isSuccess && results.length === 0 && !selected.length ? <p className="text-xs text-muted">{t.citations.pickerNone}</p> : null}
      {q && results.length ? <ul className="max-h-56 space-y-1 overflow-y-auto pr-1">{results.map((r) => row(r.id, false, r.count))}</ul> : null}
    </div>
  );
}
