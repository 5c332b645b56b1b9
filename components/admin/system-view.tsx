"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { getSystemHealth } from "@/lib/client/admin-api";
import { useI18n } from "@/lib/i18n/client";
import { formatDateTime, formatNumber } from "@/lib/i18n/locale";
import { QueryState, Stat } from "./query-state";

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const duration = (s: number) => `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
const tone = (status: string) => (status === "ok" || status === "healthy" ? "ok" : status === "not_configured" ? "neutral" : status === "degraded" ? "warn" : "danger");

/** /admin/system: dependency health, this process, sizes, search syncs and scheduled jobs. Refreshes every 30 s. */
export function SystemView() {
  const { locale, t } = useI18n();
  const S = t.admin.system;
  const health = useQuery({ queryKey: ["admin", "system"], queryFn: getSystemHealth, refetchInterval: 30_000 });
  const at = (iso: string | null) => formatDateTime(locale, iso);
  return (
    <QueryState query={health}>
      {(h) => (
        <div className="space-y-6">
          <p>
            {S.status}: <Badge tone={tone(h.health.status)}>{h.health.status}</Badge>
          </p>
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
            <Stat label={S.uptime} value={duration(h.process.uptime_s)} />
            <Stat label={S.memory} value={mb(h.process.rss_bytes)} />
            <Stat label={S.database} value={mb(h.database_bytes)} />
            <Stat label={S.index} value={h.index_bytes === null ? S.external : mb(h.index_bytes)} />
          </dl>
          <Card className="p-5">
            <h2 className="text-lg font-semibold">{S.dependencies}</h2>
            <ul className="mt-2 grid gap-2 sm:grid-cols-2">
              {Object.entries(h.health.dependencies).map(([name, d]) => (
                <li key={name} className="flex items-center justify-between gap-2 text-sm">
                  <span>{name}</span>
                  <span className="flex items-center gap-2">
                    {d.latency_ms !== undefined ? <span className="text-muted tabular-nums">{d.latency_ms} ms</span> : null}
                    <Badge tone={tone(d.status)}>{d.status}</Badge>
                  </span>
                </li>
              ))}
            </ul>
          </Card>
          <Card className="overflow-x-auto p-5">
            <h2 className="text-lg font-semibold">{S.jobs}</h2>
            {h.jobs.length === 0 ? (
              <p className="mt-2 text-sm text-muted">{t.admin.empty}</p>
            ) : (
              <table className="mt-2 w-full text-left text-sm">
                <thead>
                  <tr>
                    <th scope="col" className="py-1 pr-3">{S.job}</th>
                    <th scope="col" className="py-1 pr-3">{S.lastRun}</th>
                    <th scope="col" className="py-1 pr-3">{S.result}</th>
                  </tr>
                </thead>
                <tbody>
                  {h.jobs.map((j) => (
                    <tr key={j.name} className="border-t border-line">
                      <td className="py-1 pr-3 font-mono text-xs">{j.name}</td>
                      <td className="py-1 pr-3">{at(j.last_finished_at)}</td>
                      <td className="py-1 pr-3">
                        <Badge tone={j.last_ok ? "ok" : "danger"}>{j.last_ok ? S.ok : S.failed}</Badge> {j.last_error ?? ""}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          <Card className="overflow-x-auto p-5">
            <h2 className="text-lg font-semibold">{S.syncs}</h2>
            {h.sync_runs.length === 0 ? (
              <p className="mt-2 text-sm text-muted">{t.admin.empty}</p>
            ) : (
              <table className="mt-2 w-full text-left text-sm">
                <thead>
                  <tr>
                    <th scope="col" className="py-1 pr-3">{S.kind}</th>
                    <th scope="col" className="py-1 pr-3">{S.started}</th>
                    <th scope="col" className="py-1 pr-3">{S.documents}</th>
                    <th scope="col" className="py-1 pr-3">{S.error}</th>
                  </tr>
                </thead>
                <tbody>
                  {h.sync_runs.map((r) => (
                    <tr key={r.id} className="border-t border-line">
                      <td className="py-1 pr-3">{r.kind} ({r.engine})</td>
                      <td className="py-1 pr-3">{at(r.started_at)}</td>
                      <td className="py-1 pr-3 tabular-nums">{formatNumber(locale, r.documents)}</td>
                      <td className="py-1 pr-3">{r.error ?? (r.completed_at ? "—" : "…")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
        </div>
      )}
    </QueryState>
  );
}
