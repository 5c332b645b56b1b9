"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Skeleton } from "@/components/ui/skeleton";
import { apiFetch } from "@/lib/client/api";
import { useI18n } from "@/lib/i18n/client";
import { normaliseSimilar, type Raw } from "./judgment";

export function SimilarJudgments({ id }: { id: string }) {
  const { t } = useI18n();
  const q = useQuery({
    queryKey: ["similar", id],
    queryFn: async () => normaliseSimilar(await apiFetch<Raw>(`/api/documents/${encodeURIComponent(id)}/similar?limit=5`)),
    staleTime: 5 * 60_000,
  });
  return (
    <section aria-labelledby="similar-h" className="text-sm">
      <h2 id="similar-h" className="mb-2 font-semibold">
        {t.doc.similar}
      </h2>
      {q.isPending ? (
        <div className="space-y-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-full" />
          ))}
        </div>
      ) : q.isError || !q.data?.length ? (
        <p className="text-muted">{t.doc.noSimilar}</p>
      ) : (
        <ul className="space-y-2">
          {q.data
            .filter((s) => s.id && s.id !== id)
            .map((s) => (
              <li key={s.id}>
                <Link href={`/documents/${encodeURIComponent(s.id)}`} className="block rounded-control p-1.5 hover:bg-sunken">
                  <span className="line-clamp-2 font-medium text-brand">{s.title}</span>
                  {s.caseNumber ? <span className="text-xs text-muted">{s.caseNumber}</span> : null}
                </Link>
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}
