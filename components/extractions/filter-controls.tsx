"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Input } from "@/components/ui/field";
import { cx } from "@/components/ui/cx";
import { epochToIsoDate, isoDateToEpoch, type FilterKeyInfo, type NumRange, type PageFilterValue } from "@/lib/client/filter-codec";
import { facetValues } from "@/lib/client/extractions-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatNumber } from "@/lib/i18n/locale";
import { useFacetScope } from "./facet-scope";
import { ProvisionPicker } from "./provision-picker";
import { keyLabel, valueLabel } from "./registry-view";

export interface ControlProps {
  info: FilterKeyInfo;
  value: PageFilterValue | undefined;
  onChange: (v: PageFilterValue | undefined) => void;
  /** Render inline (quick strip) rather than in the drawer. */
  compact?: boolean;
}

function toggle(list: string[], v: string, on: boolean): string[] | undefined {
  const next = on ? [...new Set([...list, v])] : list.filter((x) => x !== v);
  return next.length ? next : undefined; // D-09: empty selections are left out
}

function CheckboxList({ info, value, onChange, options, counts }: ControlProps & { options: string[]; counts?: Map<string, number> }) {
  const { locale, t } = useI18n();
  const selected = Array.isArray(value) ? value : [];
  // A value with no judgment in the cohort goes last, greyed, and cannot be picked (it would give 0 results); a
  // selected one stays so it can be cleared.
  const zero = (v: string) => counts !== undefined && (counts.get(v) ?? 0) === 0;
  const ordered = counts ? [...options.filter((v) => !zero(v)), ...options.filter(zero)] : options;
  return (
    <ul className="space-y-1">
      {ordered.map((v) => {
        const none = zero(v);
        const on = selected.includes(v);
        return (
          <li key={v} data-value={v} data-count={counts?.get(v) ?? undefined}>
            <label className={cx("flex items-center gap-2 text-sm", none && "text-subtle")} title={none ? t.extr.facetZero : undefined}>
              <input
                type="checkbox"
                className="size-4 shrink-0 accent-brand"
                checked={on}
                disabled={none && !on}
                onChange={(e) => onChange(toggle(selected, v, e.target.checked))}
              />
              <span className="min-w-0 flex-1 break-words">{valueLabel(info.key, v, locale, t)}</span>
              {counts ? <span className="text-xs text-subtle tabular-nums">{formatNumber(locale, counts.get(v) ?? 0)}</span> : null}
            </label>
          </li>
        );
      })}
    </ul>
  );
}

/** Counts of a fixed value set within the cohort of the other filters (every value, 0 included). */
function FixedValues(props: ControlProps & { values: readonly string[] }) {
  const { info, values } = props;
  const { t } = useI18n();
  const scope = useFacetScope(info.key);
  const facets = useQuery({
    queryKey: ["facets", info.key, "", scope.filters, scope.textQuery, values],
    queryFn: ({ signal }) => facetValues(info.key, "", { filters: scope.filters, textQuery: scope.textQuery, include: values }, signal),
    staleTime: 60_000,
  });
  // Until the counts arrive (or if they fail) the set is shown as it is, without counts.
  const counts = facets.data ? new Map(facets.data.map((f) => [f.value, f.count])) : undefined;
  return (
    <div className="space-y-1">
      <CheckboxList {...props} options={[...values]} counts={counts} />
      {counts && scope.others > 0 ? <p className="text-xs text-muted">{t.extr.facetScoped}</p> : null}
    </div>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

/**
 * Values from the facets route for tag arrays and enums without a fixed set: the top 20 within the cohort of the
 * other filters (typed narrowing), and the selected values with their counts there (0 when absent).
 */
function FacetPicker(props: ControlProps) {
  const { info, value } = props;
  const { locale, t } = useI18n();
  const id = useId();
  const [text, setText] = useState("");
  const q = useDebounced(text, 200);
  const scope = useFacetScope(info.key);
  const selected = Array.isArray(value) ? value : [];
  const facets = useQuery({
    queryKey: ["facets", info.key, q, scope.filters, scope.textQuery, selected],
    queryFn: ({ signal }) => facetValues(info.key, q, { filters: scope.filters, textQuery: scope.textQuery, include: selected }, signal),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
  const fromFacets = (facets.data ?? []).map((f) => f.value);
  const options = [...selected.filter((v) => !fromFacets.includes(v)), ...fromFacets];
  const counts = facets.data ? new Map(facets.data.map((f) => [f.value, f.count])) : undefined;
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="sr-only">
        {fmt(t.extr.facetSearch, { label: keyLabel(info.key, locale) })}
      </label>
      <Input id={id} type="search" className="h-8" placeholder={t.extr.contains} value={text} onChange={(e) => setText(e.target.value)} maxLength={100} />
      {facets.isPending && options.length === 0 ? <p className="text-xs text-muted">{t.extr.facetLoading}</p> : null}
      {!facets.isPending && options.length === 0 ? <p className="text-xs text-muted">{t.extr.facetNone}</p> : null}
      <div className="max-h-56 overflow-y-auto pr-1">
        <CheckboxList {...props} options={options} counts={counts} />
      </div>
      {counts && options.length > 0 && scope.others > 0 ? <p className="text-xs text-muted">{t.extr.facetScoped}</p> : null}
    </div>
  );
}

function TriState({ info, value, onChange, compact }: ControlProps) {
  const { locale, t } = useI18n();
  const name = useId();
  const current = value === true ? "yes" : value === false ? "no" : "any";
  const opts = [
    { v: "any", label: t.extr.triAny, out: undefined },
    { v: "yes", label: t.extr.triYes, out: true },
    { v: "no", label: t.extr.triNo, out: false },
  ] as const;
  return (
    <div role="radiogroup" aria-label={compact ? keyLabel(info.key, locale) : undefined} className="inline-flex rounded-control border border-line-strong bg-surface p-0.5">
      {opts.map((o) => (
        <label
          key={o.v}
          className="cursor-pointer rounded-[calc(var(--radius-control)-2px)] px-2.5 py-0.5 text-sm has-checked:bg-brand has-checked:text-on-brand has-focus-visible:outline-2 has-focus-visible:outline-focus"
        >
          <input type="radio" className="sr-only" name={name} checked={current === o.v} onChange={() => onChange(o.out)} />
          {o.label}
        </label>
      ))}
    </div>
  );
}

function RangeInputs({ info, value, onChange, kind }: ControlProps & { kind: "number" | "date" }) {
  const { locale, t } = useI18n();
  const id = useId();
  const range = (value && typeof value === "object" && !Array.isArray(value) ? value : {}) as NumRange;
  const label = keyLabel(info.key, locale);
  const show = (n: number | undefined) => (n === undefined ? "" : kind === "date" ? epochToIsoDate(n) : String(n));
  function set(bound: "min" | "max", raw: string) {
    const n = raw === "" ? undefined : kind === "date" ? (isoDateToEpoch(raw) ?? undefined) : Number(raw);
    const next: NumRange = { ...range, [bound]: n !== undefined && Number.isFinite(n) ? n : undefined };
    if (next.min === undefined) delete next.min;
    if (next.max === undefined) delete next.max;
    onChange(next.min === undefined && next.max === undefined ? undefined : next);
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {(["min", "max"] as const).map((b) => (
        <div key={b} className="flex items-center gap-1.5">
          <label htmlFor={`${id}-${b}`} className="text-xs text-muted">
            <span className="sr-only">{label}: </span>
            {kind === "date" ? (b === "min" ? t.extr.from : t.extr.to) : b === "min" ? t.extr.min : t.extr.max}
          </label>
          <Input
            id={`${id}-${b}`}
            type={kind}
            inputMode={kind === "number" ? "decimal" : undefined}
            className={cx("h-8", kind === "date" ? "w-40" : "w-24")}
            value={show(range[b])}
            min={kind === "date" ? "1990-01-01" : undefined}
            max={kind === "date" ? "2100-12-31" : undefined}
            onChange={(e) => set(b, e.target.value)}
          />
        </div>
      ))}
    </div>
  );
}

function SubstringInput({ info, value, onChange }: ControlProps) {
  const { locale, t } = useI18n();
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {keyLabel(info.key, locale)}: {t.extr.contains}
      </label>
      <Input id={id} className="h-8" placeholder={t.extr.contains} maxLength={200} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value || undefined)} />
    </div>
  );
}

/** The control the registry names for a key (spec: control kinds). */
export function FilterControl(props: ControlProps) {
  switch (props.info.control) {
    case "enum_multi":
      return props.info.enumValues ? <FixedValues {...props} values={props.info.enumValues} /> : <FacetPicker {...props} />;
    case "tag_array":
      // cites: ids found through the provision lookup, not facet values (lib/schema/filter-fields.ts isFacetable).
      return props.info.valuePattern ? <ProvisionPicker {...props} /> : <FacetPicker {...props} />;
    case "boolean_tri":
      return <TriState {...props} />;
    case "numeric_range":
      return <RangeInputs {...props} kind="number" />;
    case "date_range":
      return <RangeInputs {...props} kind="date" />;
    case "substring":
      return <SubstringInput {...props} />;
  }
}
