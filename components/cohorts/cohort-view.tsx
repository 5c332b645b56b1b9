"use client";

import Link from "next/link";
import { Button, buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { cohortBibtex, cohortCslJson, type CitedCohort } from "@/lib/client/cohorts-api";
import { downloadText } from "@/lib/client/download";
import { serializeExtractionState } from "@/lib/client/extraction-url-state";
import { normaliseFilter } from "@/lib/client/filter-codec";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, formatDateTime, plural } from "@/lib/i18n/locale";
import { FilterSummary } from "./filter-summary";

function IdList({ title, ids, testId }: { title: string; ids: string[]; testId: string }) {
  if (!ids.length) return null;
  return (
    <div>
      <h3 className="text-sm font-semibold">{title}</h3>
      <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm" data-testid={testId}>
        {ids.map((id) => (
          <li key={id}>
            <Link href={`/documents/${id}`} className="font-mono text-xs underline">
              {id}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** /c/{id}: a cited cohort as stored, what the same filter gives today, and its BibTeX and CSL-JSON entries. */
export function CohortView({ cohort }: { cohort: CitedCohort }) {
  const { locale, t } = useI18n();
  const c = t.cohorts.cohort;
  const hydrated = useHydrated();
  // The server may know only the path (no APP_URL); once in the browser the entry carries the full address.
  const url = hydrated && cohort.url.startsWith("/") ? new URL(cohort.url, window.location.origin).toString() : cohort.url;
  const entry = { ...cohort, url };
  const title = plural(locale, cohort.members_count, c.citationTitle);
  const bibtex = cohortBibtex(entry, title, c.publisher);
  const csl = cohortCslJson(entry, title, c.publisher);
  const pageFilter = normaliseFilter(cohort.filters);
  const extractionsHref = `/search/extractions${serializeExtractionState({ filter: pageFilter ?? {}, q: cohort.text_query ?? "", page: 1, nl: "" })}`;
  const now = cohort.current;

  return (
    <div className="space-y-6">
      <Card className="space-y-3 p-4">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium">{c.filter}</dt>
          <dd>
            <FilterSummary filters={cohort.filters} emptyText={c.noFilter} />
          </dd>
          {cohort.text_query ? (
            <>
              <dt className="font-medium">{c.textQuery}</dt>
              <dd>{cohort.text_query}</dd>
            </>
          ) : null}
          <dt className="font-medium">{c.members}</dt>
          <dd data-testid="cohort-count">{plural(locale, cohort.members_count, t.cohorts.judgments)}</dd>
          <dt className="font-medium">{c.seed}</dt>
          <dd>{cohort.seed ?? c.noSeed}</dd>
          <dt className="font-medium">{c.corpusVersion}</dt>
          <dd className="font-mono text-xs">{cohort.corpus_version ?? c.unknownVersion}</dd>
          <dt className="font-medium">{c.createdAt}</dt>
          <dd>{formatDateTime(locale, cohort.created_at)}</dd>
        </dl>
        {pageFilter ? (
          <Link href={extractionsHref} className={buttonClass("secondary", "sm")}>
            {c.openInExtractions}
          </Link>
        ) : null}
      </Card>

      {now.changed ? (
        <Notice tone="warn" title={c.changed}>
          <div className="space-y-3" data-testid="cohort-changed">
            <p>
              {plural(locale, now.members_count, c.nowCount)} · {plural(locale, now.added_count, c.added)} · {plural(locale, now.removed_count, c.removed)}
            </p>
            <p className="text-xs">{fmt(c.nowVersion, { version: now.corpus_version ?? c.unknownVersion })}</p>
            {now.added_count + now.removed_count > 0 ? <p className="text-xs">{c.listShown}</p> : null}
            <IdList title={c.addedList} ids={now.added} testId="cohort-added" />
            <IdList title={c.removedList} ids={now.removed} testId="cohort-removed" />
          </div>
        </Notice>
      ) : (
        <Notice tone="ok">
          <span data-testid="cohort-unchanged">{c.unchanged}</span>
        </Notice>
      )}

      <section aria-labelledby="cite-h" className="space-y-3">
        <h2 id="cite-h" className="text-lg font-semibold">
          {c.cite}
        </h2>
        <div className="grid gap-4 lg:grid-cols-2">
          {(
            [
              ["bibtex", c.bibtex, bibtex, `cohort-${cohort.id}.bib`, "application/x-bibtex"],
              ["csl", c.cslJson, csl, `cohort-${cohort.id}.json`, "application/vnd.citationstyles.csl+json"],
            ] as const
          ).map(([key, label, text, file, mime]) => (
            <Card key={key} className="space-y-2 p-4">
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-medium">{label}</h3>
                <Button variant="secondary" size="sm" onClick={() => downloadText(text, file, mime)} data-testid={`download-${key}`}>
                  {c.download}
                </Button>
              </div>
              <pre className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-sunken p-3 text-xs" data-testid={`cite-${key}`}>
                {text}
              </pre>
            </Card>
          ))}
        </div>
      </section>

      <section aria-labelledby="members-h" className="space-y-2">
        <h2 id="members-h" className="text-lg font-semibold">
          {c.members}
        </h2>
        {cohort.members.length ? <p className="text-sm text-muted">{plural(locale, cohort.members.length, c.membersShown)}</p> : null}
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="cohort-members">
            <thead>
              <tr className="text-left text-muted">
                <th className="py-1 pr-3 font-medium">{c.caseNumber}</th>
                <th className="py-1 pr-3 font-medium">{c.titleColumn}</th>
                <th className="py-1 pr-3 font-medium">{c.decisionDate}</th>
              </tr>
            </thead>
            <tbody>
              {cohort.members.map((m) => (
                <tr key={m.id} className="border-t border-line">
                  <td className="py-1 pr-3">
                    <Link href={`/documents/${m.id}`} className="underline">
                      {m.case_number ?? m.id}
                    </Link>
                  </td>
                  <td className="py-1 pr-3">{m.title ?? ""}</td>
                  <td className="py-1 pr-3 whitespace-nowrap">{formatDate(locale, m.decision_date)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
