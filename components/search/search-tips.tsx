"use client";

import { useI18n } from "@/lib/i18n/client";

/**
 * The "Search tips" popover: the query language's examples (docs/search.md "Query language"). A native
 * <details>/<summary> disclosure, so it opens with Enter or Space from the keyboard and is announced as expanded or
 * collapsed without any script.
 */
export function SearchTips() {
  const { t } = useI18n();
  const tips = t.search.tips;
  return (
    <details className="group relative text-sm">
      <summary className="cursor-pointer list-none rounded-control px-1 text-brand underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-focus">
        {tips.title}
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-[min(28rem,calc(100vw-2rem))] rounded-control border border-line-strong bg-surface p-3 shadow-lg">
        <p className="mb-2 text-muted">{tips.intro}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
          {tips.rows.map((r) => (
            <div key={r.syntax} className="contents">
              <dt>
                <code className="rounded bg-sunken px-1 font-mono text-xs">{r.syntax}</code>
              </dt>
              <dd className="text-muted">{r.meaning}</dd>
            </div>
          ))}
        </dl>
      </div>
    </details>
  );
}
