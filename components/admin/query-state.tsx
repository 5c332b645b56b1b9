"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";

/** Loading skeleton, error notice with retry, or the content: the three states every admin view shows. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const { t } = useI18n();
  if (query.isPending) {
    return (
      <div role="status" className="space-y-2" aria-busy="true" aria-label={t.admin.loading}>
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <Notice tone="danger">
        {fmt(t.admin.loadError, { message: errorMessage(query.error, t.common.unknownError) })}{" "}
        <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
          {t.admin.retry}
        </Button>
      </Notice>
    );
  }
  return <>{children(query.data)}</>;
}

/** A labelled figure. */
export function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-card border border-line bg-surface p-4">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}
