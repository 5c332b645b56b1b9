"use client";

/**
 * The parts shared by the "Cited by" panel and the provision pages: the filter form (jurisdiction, court, outcome,
 * decision dates, sort), the list of citing judgments and the outcome labels.
 */
import Link from "next/link";
import { useId, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label, controlClass } from "@/components/ui/field";
import { cx } from "@/components/ui/cx";
import { valueLabel } from "@/components/extractions/registry-view";
import type { CitingJudgment as CitingItem } from "@/lib/backend/responses";
import { useI18n } from "@/lib/i18n/client";
import type { Messages } from "@/lib/i18n/en";
import { formatDate, plural, type Locale } from "@/lib/i18n/locale";
import { documentHref } from "./links";
import { CITING_SORTS, citingFiltersOf, type CitingFilterValues } from "./filters";

export { citingFiltersOf, citingParams, type CitingFilterValues } from "./filters";

/** An outcome as a reader says it: the appeal outcomes' registry labels, else the stored words without underscores. */
export function outcomeLabel(code: string, locale: Locale, t: Messages): string {
  if (code === "unknown" || code === "outcome_unknown") return t.citations.outcomeUnknown;
  const label = valueLabel("base_appeal_outcome", code, locale, t);
  if (label !== code) return label;
  const words = code.replace(/^outcome_/, "").replace(/_+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The filter form. With `onSubmit` the caller applies the values (the judgment page's panel); without, it is a plain
 * GET form reloading the page with them (the provision pages, which the server renders).
 */
export function CitingFilters({ values, outcomes, onSubmit, clearHref }: { values: CitingFilterValues; outcomes: string[]; onSubmit?: (v: CitingFilterValues) => void; clearHref?: string }) {
  const { locale, t } = useI18n();
  const C = t.citations;
  const id = useId();
  const options = [...new Set([...outcomes.filter((o) => o !== "unknown"), ...(values.outcome ? [values.outcome] : [])])];
  const submit = (e: FormEvent<HTMLFormElement>) => {
    if (!onSubmit) return;
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    onSubmit(citingFiltersOf((k) => {
      const v = data.get(k);
      return typeof v === "string" ? v : null;
    }));
  };
  const key = JSON.stringify(values);
  return (
    <form key={key} method="get" onSubmit={submit} aria-label={C.filters} className="flex flex-wrap items-end gap-3 text-sm">
      <div>
        <Label htmlFor={`${id}-j`}>{C.jurisdiction}</Label>
        <select id={`${id}-j`} name="jurisdiction" defaultValue={values.jurisdiction ?? ""} className={cx(controlClass, "h-9 w-auto")}>
          <option value="">{C.anyJurisdiction}</option>
          <option value="PL">{t.common.jurisdiction.PL}</option>
          <option value="UK">{t.common.jurisdiction.UK}</option>
        </select>
      </div>
      <div>
        <Label htmlFor={`${id}-c`}>{C.court}</Label>
        <Input id={`${id}-c`} name="court" defaultValue={values.court ?? ""} placeholder={C.courtPlaceholder} maxLength={300} className="h-9 w-48" />
      </div>
      <div>
        <Label htmlFor={`${id}-o`}>{C.outcome}</Label>
        <select id={`${id}-o`} name="outcome" defaultValue={values.outcome ?? ""} className={cx(controlClass, "h-9 w-auto")}>
          <option value="">{C.anyOutcome}</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {outcomeLabel(o, locale, t)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <Label htmlFor={`${id}-f`}>{C.dateFrom}</Label>
        <Input id={`${id}-f`} name="date_from" type="date" defaultValue={values.date_from ?? ""} min="1900-01-01" max="2100-12-31" className="h-9 w-40" />
      </div>
      <div>
        <Label htmlFor={`${id}-t`}>{C.dateTo}</Label>
        <Input id={`${id}-t`} name="date_to" type="date" defaultValue={values.date_to ?? ""} min="1900-01-01" max="2100-12-31" className="h-9 w-40" />
      </div>
      <div>
        <Label htmlFor={`${id}-s`}>{C.sort}</Label>
        <select id={`${id}-s`} name="sort" defaultValue={values.sort ?? "newest"} className={cx(controlClass, "h-9 w-auto")}>
          {CITING_SORTS.map((s) => (
            <option key={s} value={s}>
              {C.sorts[s]}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary" size="sm" className="h-9">
        {C.apply}
      </Button>
      {clearHref ? (
        <Link href={clearHref} className="inline-flex h-9 items-center px-2 text-brand underline">
          {C.clear}
        </Link>
      ) : onSubmit ? (
        <Button type="button" variant="ghost" size="sm" className="h-9" onClick={() => onSubmit({})}>
          {C.clear}
        </Button>
      ) : null}
    </form>
  );
}

/** The citing judgments, each linked to its page. */
export function CitingItems({ items, testId }: { items: CitingItem[]; testId?: string }) {
  const { locale, t } = useI18n();
  return (
    <ol className="divide-y divide-line" data-testid={testId}>
      {items.map((it) => (
        <li key={it.id} className="py-2">
          <Link href={documentHref(it.id)} prefetch={false} className="font-medium text-brand hover:underline">
            {it.case_number || it.title || it.id}
          </Link>
          <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-muted">
            {it.court_name ? <span>{it.court_name}</span> : null}
            {it.decision_date ? <time dateTime={it.decision_date}>{formatDate(locale, it.decision_date)}</time> : null}
            {it.outcome ? <span>{outcomeLabel(it.outcome, locale, t)}</span> : null}
            {it.cited_by_count > 0 ? <span>{plural(locale, it.cited_by_count, t.citations.timesCited)}</span> : null}
          </p>
        </li>
      ))}
    </ol>
  );
}
