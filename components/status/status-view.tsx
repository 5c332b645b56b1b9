"use client";

import { useQuery } from "@tanstack/react-query";
import type { DependencyStatus, HealthStatus } from "@/lib/backend/health/status";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { apiFetch } from "@/lib/client/api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDateTime } from "@/lib/i18n/locale";

const tone: Record<DependencyStatus | HealthStatus["status"], Tone> = {
  ok: "ok",
  healthy: "ok",
  degraded: "warn",
  down: "danger",
  not_configured: "neutral",
};

const DEPS = ["database", "search_engine", "cache", "backend_platform", "task_queue", "llm_tracing"] as const;

/** The /status page body over GET /api/health/status, refreshed on demand. */
export function StatusView() {
  const { locale, t } = useI18n();
  const S = t.status;
  const q = useQuery({ queryKey: ["health"], queryFn: () => apiFetch<HealthStatus>("/api/health/status"), staleTime: 0 });
  const time = (iso: string) => formatDateTime(locale, iso);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        {q.data ? (
          <>
            <span className="text-sm text-muted">{S.overall}</span>
            <Badge tone={tone[q.data.status]}>{S.states[q.data.status]}</Badge>
            <span className="text-sm text-muted" data-testid="build-info">
              {fmt(S.version, { version: q.data.version })}
              {" · "}
              {q.data.commit !== "unknown" && !Number.isNaN(Date.parse(q.data.built_at))
                ? fmt(S.build, { commit: q.data.commit.slice(0, 12), time: time(q.data.built_at) })
                : S.buildUnknown}
            </span>
            <span className="text-sm text-muted">{fmt(S.checkedAt, { time: time(q.data.timestamp) })}</span>
          </>
        ) : (
          <Skeleton className="h-6 w-64" />
        )}
        <Button variant="secondary" size="sm" className="ml-auto" onClick={() => q.refetch()} disabled={q.isFetching}>
          {q.isFetching ? t.common.loading : S.refresh}
        </Button>
      </div>
      {q.isError ? <Notice tone="danger">{S.unreachable}</Notice> : null}
      <Card className="relative overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{S.title}</caption>
          <thead className="border-b border-line text-muted">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">{S.dependency}</th>
              <th scope="col" className="px-4 py-2 font-medium">{S.state}</th>
              <th scope="col" className="px-4 py-2 font-medium">{S.latency}</th>
              <th scope="col" className="px-4 py-2 font-medium">{S.detail}</th>
            </tr>
          </thead>
          <tbody>
            {DEPS.map((key) => {
              const dep = q.data?.dependencies[key];
              return (
                <tr key={key} className="border-b border-line last:border-0 align-top">
                  <th scope="row" className="px-4 py-3 font-medium">{S.deps[key]}</th>
                  <td className="px-4 py-3">{dep ? <Badge tone={tone[dep.status]}>{S.states[dep.status]}</Badge> : <Skeleton className="h-5 w-20" />}</td>
                  <td className="px-4 py-3 tabular-nums">{dep?.latency_ms !== undefined ? `${Math.round(dep.latency_ms)} ms` : "—"}</td>
                  <td className="px-4 py-3 text-muted">
                    {dep?.detail ?? (dep ? "—" : null)}
                    {key === "search_engine" && q.data ? (
                      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs">
                        <dt>{S.lastSync}</dt>
                        <dd>{q.data.dependencies.search_engine.sync.last_completed_at ? time(q.data.dependencies.search_engine.sync.last_completed_at) : S.never}</dd>
                        {q.data.dependencies.search_engine.sync.last_error ? (
                          <>
                            <dt>{S.lastSyncError}</dt>
                            <dd className="text-danger">{q.data.dependencies.search_engine.sync.last_error}</dd>
                          </>
                        ) : null}
                      </dl>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
