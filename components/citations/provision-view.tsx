"use client";

/**
 * A provision's page (/legislation/{id}): its name and parent, the judgments applying it with counts per year and per
 * outcome, the filters and sort as a GET form and the pages as links, so the server renders every state of it.
 */
import Link from "next/link";
import { CountBars } from "@/components/dashboard/charts";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { ProvisionBody } from "@/lib/backend/responses";
import { provisionName } from "@/lib/citations/name";
import { useI18n } from "@/lib/i18n/client";
import { fmt, plural } from "@/lib/i18n/locale";
import { CitingFilters, CitingItems, citingParams, outcomeLabel, type CitingFilterValues } from "./citing-list";
import { provisionHref } from "./links";

export function ProvisionView({ body, filters }: { body: ProvisionBody; filters: CitingFilterValues }) {
  const { locale, t } = useI18n();
  const C = t.citations;
  const href = provisionHref(body.id);
  const page = Math.floor(body.offset / body.limit) + 1;
  const pages = Math.max(1, Math.ceil(body.total / body.limit));
  const pageHref = (p: number) => `${href}?${citingParams(filters, p > 1 ? { offset: (p - 1) * body.limit } : {})}`;
  const filtered = Object.keys(filters).some((k) => k !== "sort");
  const years = [...body.by_year].sort((a, b) => a.year - b.year).map((y) => ({ name: String(y.year), count: y.count }));
  const outcomes = body.by_outcome.map((o) => ({ name: outcomeLabel(o.outcome, locale, t), count: o.count }));
  return (
    <div className="space-y-6">
      <header>
        {body.parent ? (
          <p className="text-sm text-muted">
            {C.parent}:{" "}
            <Link href={provisionHref(body.parent)} className="text-brand underline" data-testid="provision-parent">
              {provisionName(body.parent)}
            </Link>
          </p>
        ) : null}
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">{body.name}</h1>
        <p className="mt-2 text-sm text-muted">{C.provisionLead}</p>
        <p className="mt-2 text-sm font-medium" data-testid="provision-total" aria-live="polite">
          {plural(locale, body.total, C.applying)}
        </p>
      </header>

      <CitingFilters values={filters} outcomes={body.by_outcome.map((o) => o.outcome)} clearHref={href} />

      {body.total === 0 ? (
        <p role="status" className="rounded-card border border-dashed border-line-strong p-6 text-center text-sm text-muted">
          {filtered ? C.noneMatch : C.noneApply}
        </p>
      ) : (
        <>
          <div className="grid gap-6 md:grid-cols-2">
            <Card className="p-4">
              <h2 className="mb-2 font-semibold">{C.perYear}</h2>
              <CountBars data={years} title={C.perYear} />
            </Card>
            <Card className="p-4">
              <h2 className="mb-2 font-semibold">{C.perOutcome}</h2>
              <CountBars data={outcomes} title={C.perOutcome} />
            </Card>
          </div>
          <section aria-labelledby="applying-h">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="applying-h" className="text-lg font-semibold">
                {C.judgments}
              </h2>
              <a href={`/api${href}?${citingParams(filters, { format: "csv" })}`} className={buttonClass("secondary", "sm")} download>
                {C.csv}
              </a>
            </div>
            <CitingItems items={body.items} testId="provision-judgments" />
            {pages > 1 ? (
              <nav aria-label={C.pages} className="mt-4 flex items-center justify-between gap-2 text-sm">
                {page > 1 ? (
                  <Link href={pageHref(page - 1)} className={buttonClass("secondary", "sm")}>
                    ← {C.previous}
                  </Link>
                ) : (
                  <span />
                )}
                <span className="text-muted" aria-current="page">
                  {fmt(C.pageOf, { page, pages })}
                </span>
                {page < pages ? (
                  <Link href={pageHref(page + 1)} className={buttonClass("secondary", "sm")}>
                    {C.next} →
                  </Link>
                ) : (
                  <span />
                )}
              </nav>
            ) : null}
          </section>
        </>
      )}
    </div>
  );
}
