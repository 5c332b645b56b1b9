"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { Pagination } from "@/components/pagination";
import { errorMessage } from "@/lib/client/api";
import { isActive, listJobs } from "@/lib/client/extraction-jobs-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate } from "@/lib/i18n/locale";
import { JOB_STATUSES } from "@/lib/schema/requests/extraction-jobs";
import { JobProgress, JobStatusBadge } from "./job-progress";

/** /extractions/jobs: the caller's jobs, newest first; polls every 2 s while any job on the page is queued or running. */
export function JobsList() {
  const { t, locale } = useI18n();
  const [status, setStatus] = useState("");
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ["extraction-jobs", status, page],
    queryFn: () => listJobs({ status: status || undefined, page }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.jobs.some(isActive) ? 2000 : false),
  });
  return (
    <div className="space-y-4">
      <div className="max-w-xs">
        <Label htmlFor="jobs-status">{t.extraction.statusFilter}</Label>
        <select
          id="jobs-status"
          className="w-full rounded-card border border-line-strong bg-surface px-2 py-2"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            setPage(1);
          }}
        >
          <option value="">{t.extraction.allStatuses}</option>
          {JOB_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t.extraction[`status_${s}`]}
            </option>
          ))}
        </select>
      </div>
      {q.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : q.isError ? (
        <Notice tone="danger">{fmt(t.extraction.jobsLoadError, { message: errorMessage(q.error, "") })}</Notice>
      ) : q.data.jobs.length === 0 ? (
        <Notice>{t.extraction.noJobs}</Notice>
      ) : (
        <ul className="space-y-3" aria-live="polite">
          {q.data.jobs.map((j) => (
            <li key={j.job_id}>
              <Card className="space-y-2 p-4">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <Link className="font-medium underline" href={`/extractions/jobs/${j.job_id}`} aria-label={fmt(t.extraction.openJob, { id: j.job_id.slice(0, 8) })}>
                    {j.schema.key === "base" ? t.extraction.baseSchema : j.schema.name}
                    {j.schema.version ? ` · v${j.schema.version}` : ""}
                  </Link>
                  <span className="flex items-center gap-2 text-sm text-ink-muted">
                    {t.extraction[`mode_${j.mode}`]} · {formatDate(locale, j.created_at)}
                    <JobStatusBadge status={j.status} />
                  </span>
                </div>
                <JobProgress job={j} />
              </Card>
            </li>
          ))}
        </ul>
      )}
      {q.data && q.data.total > q.data.page_size ? (
        <Pagination page={page} pages={Math.ceil(q.data.total / q.data.page_size)} onPage={setPage} label={t.extraction.page} />
      ) : null}
    </div>
  );
}
