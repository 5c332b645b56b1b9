"use client";

/**
 * "Cites (n)": what a judgment cites, grouped: the judgments (linked when the reference resolved to one in the corpus,
 * plain text otherwise) and the provisions (each linked to its page). Each target once, in the order first cited.
 */
import Link from "next/link";
import { Skeleton } from "@/components/ui/skeleton";
import { Notice } from "@/components/ui/notice";
import type { DocumentReference } from "@/lib/backend/citations";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";
import { provisionName } from "@/lib/citations/name";
import { documentHref, provisionHref } from "./links";

interface Grouped {
  judgments: { key: string; label: string; href: string | null; detail: string | null }[];
  provisions: { id: string; name: string }[];
}

export function groupReferences(items: readonly DocumentReference[]): Grouped {
  const judgments: Grouped["judgments"] = [];
  const provisions: Grouped["provisions"] = [];
  const seen = new Set<string>();
  for (const r of items) {
    if (r.kind === "case") {
      const key = r.target_id ?? `ext:${r.canonical_id ?? r.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const label = r.target ? (r.target.case_number ?? r.target.title ?? r.text) : r.text;
      const detail = r.target ? [r.target.court_name, r.target.decision_date].filter(Boolean).join(", ") || null : r.court;
      judgments.push({ key, label, href: r.target_id ? documentHref(r.target_id) : null, detail });
    } else if (r.canonical_id) {
      if (seen.has(r.canonical_id)) continue;
      seen.add(r.canonical_id);
      provisions.push({ id: r.canonical_id, name: provisionName(r.canonical_id) });
    }
  }
  return { judgments, provisions };
}

export function CitesPanel({ items, loading, error }: { items: readonly DocumentReference[] | undefined; loading: boolean; error: boolean }) {
  const { t } = useI18n();
  const C = t.citations;
  const g = items ? groupReferences(items) : null;
  const n = g ? g.judgments.length + g.provisions.length : 0;
  return (
    <section aria-labelledby="cites-h" data-testid="cites-panel">
      <h2 id="cites-h" className="text-lg font-semibold">
        {fmt(C.cites, { count: n })}
      </h2>
      {loading ? (
        <div className="mt-3 space-y-2" aria-busy="true">
          <span className="sr-only">{C.loading}</span>
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-5 w-2/3" />
          ))}
        </div>
      ) : error || !g ? (
        <Notice tone="danger" className="mt-3">
          {C.loadError}
        </Notice>
      ) : n === 0 ? (
        <p className="mt-3 text-sm text-muted">{C.nothingCited}</p>
      ) : (
        <div className="mt-3 grid gap-6 text-sm sm:grid-cols-2">
          {g.judgments.length ? (
            <div>
              <h3 className="mb-1 font-medium">{C.judgments}</h3>
              <ul className="space-y-1">
                {g.judgments.map((j) => (
                  <li key={j.key}>
                    {j.href ? (
                      <Link href={j.href} prefetch={false} className="text-brand underline">
                        {j.label}
                      </Link>
                    ) : (
                      <span>
                        {j.label} <span className="text-xs text-muted">({C.unresolved})</span>
                      </span>
                    )}
                    {j.detail ? <span className="block text-xs text-muted">{j.detail}</span> : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {g.provisions.length ? (
            <div>
              <h3 className="mb-1 font-medium">{C.provisions}</h3>
              <ul className="space-y-1">
                {g.provisions.map((p) => (
                  <li key={p.id}>
                    <Link href={provisionHref(p.id)} prefetch={false} className="text-brand underline">
                      {p.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      )}
    </section>
  );
}
