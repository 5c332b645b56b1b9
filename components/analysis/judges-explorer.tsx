"use client";

/**
 * /judges: find a judge by name, then open the profile (/judges/{name}) or pick 2-3 judges and open their comparison
 * (/judges/compare?j=…&j=…): both are pages of their own, so a profile or a comparison can be bookmarked and shared.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { FieldError, FieldHint, Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { searchJudges } from "@/lib/client/analysis-lines-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, plural } from "@/lib/i18n/locale";
import { JudgeSearchQuerySchema } from "@/lib/schema/requests/analysis-lines";
import { compareHref, judgeHref } from "./judge-profile";

export function JudgesExplorer() {
  const { locale, t } = useI18n();
  const tj = t.analysis.judges;
  const [q, setQ] = useState("");
  const [query, setQuery] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [compare, setCompare] = useState<string[]>([]);

  const hits = useQuery({ queryKey: ["judge-search", query], queryFn: () => searchJudges(query ?? ""), enabled: query !== null });

  return (
    <div className="space-y-6">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          // The route's own schema: the same rule (q ≥ 2 characters) in the form and at the API.
          const parsed = JudgeSearchQuerySchema.shape.q.safeParse(q);
          if (!parsed.success) return setFormError(tj.searchHint);
          setFormError(null);
          setQuery(parsed.data);
        }}
      >
        <div className="min-w-0 flex-1 basis-60">
          <Label htmlFor="judge-q">{tj.searchLabel}</Label>
          <Input id="judge-q" value={q} maxLength={200} onChange={(e) => setQ(e.target.value)} aria-describedby="judge-q-hint judge-q-error" aria-invalid={formError ? true : undefined} />
          <FieldHint id="judge-q-hint">{tj.searchHint}</FieldHint>
          <FieldError id="judge-q-error">{formError}</FieldError>
        </div>
        <Button type="submit">{tj.searchButton}</Button>
      </form>

      {query !== null ? (
        hits.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : hits.isError ? (
          <Notice tone="danger">{fmt(tj.loadError, { message: errorMessage(hits.error, t.common.unknownError) })}</Notice>
        ) : hits.data.judges.length === 0 ? (
          <p className="text-muted">{tj.noHits}</p>
        ) : (
          <ul className="divide-y divide-line rounded-card border border-line" aria-label={tj.searchLabel}>
            {hits.data.judges.map((j) => (
              <li key={`${j.name}|${j.jurisdiction}`} className="flex flex-wrap items-center gap-2 p-2">
                <Link className="font-medium text-brand hover:underline" href={judgeHref(j.name)}>
                  {j.name}
                </Link>
                <span className="text-sm text-muted">
                  {j.jurisdiction} · {plural(locale, j.judgments, tj.judgmentsCount)}
                </span>
                <span className="ml-auto">
                  {compare.includes(j.name) ? (
                    <Button size="sm" variant="ghost" onClick={() => setCompare(compare.filter((n) => n !== j.name))}>
                      {tj.compareRemove}
                    </Button>
                  ) : (
                    <Button size="sm" variant="secondary" disabled={compare.length >= 3} onClick={() => setCompare([...compare, j.name])}>
                      {tj.compareAdd}
                    </Button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )
      ) : null}

      <div className="flex flex-wrap items-center gap-2">
        {compare.length >= 2 ? (
          <Link className={buttonClass("secondary")} href={compareHref(compare)}>
            {tj.compareButton}
          </Link>
        ) : (
          <Button variant="secondary" disabled>
            {tj.compareButton}
          </Button>
        )}
        <span className="text-sm text-muted">{compare.length ? compare.join(", ") : tj.compareHint}</span>
      </div>

    </div>
  );
}
