"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, type ReactNode, type RefObject } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { Notice } from "@/components/ui/notice";
import { errorFromBody } from "@/lib/client/api";
import { useI18n } from "@/lib/i18n/client";
import { withToc, type TocEntry } from "./judgment";

async function fetchHtml(id: string): Promise<string> {
  const res = await fetch(`/api/documents/${encodeURIComponent(id)}/html`, { credentials: "same-origin" });
  const type = res.headers.get("content-type") ?? "";
  if (!res.ok) throw errorFromBody(res.status, type.includes("json") ? await res.json().catch(() => null) : null);
  if (type.includes("json")) {
    const body = (await res.json()) as { html?: unknown; content?: unknown };
    return typeof body.html === "string" ? body.html : typeof body.content === "string" ? body.content : "";
  }
  return res.text();
}

/** The judgment's sanitised HTML; `initial` (the server render's copy) is used as is, without a request. */
export function useJudgmentHtml(id: string, initial: string | null = null) {
  const q = useQuery({ queryKey: ["doc-html", id], queryFn: () => fetchHtml(id), staleTime: Infinity, initialData: initial ?? undefined });
  const prepared = useMemo(() => (q.data ? withToc(q.data) : null), [q.data]);
  return { ...q, prepared };
}

export function TableOfContents({ toc }: { toc: TocEntry[] }) {
  const { t } = useI18n();
  if (toc.length === 0) return null;
  return (
    <nav aria-labelledby="toc-h" className="text-sm">
      <h2 id="toc-h" className="mb-2 font-semibold">
        {t.doc.contents}
      </h2>
      <ol className="space-y-1 border-l border-line">
        <li>
          <a href="#base-fields" className="-ml-px block border-l border-transparent pl-3 text-muted hover:border-brand hover:text-ink">
            {t.doc.baseFields}
          </a>
        </li>
        {toc.map((e) => (
          <li key={e.id}>
            <a
              href={`#${e.id}`}
              className="-ml-px block border-l border-transparent pl-3 text-muted hover:border-brand hover:text-ink"
              style={{ paddingLeft: `${0.75 + (e.level - 1) * 0.5}rem` }}
            >
              {e.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The judgment's full text. The HTML is sanitised by the server (sanitize-html) before it leaves the web tier. */
export function FullText({
  state,
  textRef,
  tools,
  html,
}: {
  state: ReturnType<typeof useJudgmentHtml>;
  /** The HTML to show instead of the state's own (the text with its references linked). */
  html?: string | null;
  /** The element holding the rendered text (the in-document find marks it). */
  textRef?: RefObject<HTMLDivElement | null>;
  /** Shown beside the heading (the find box). */
  tools?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="full-text-h">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="full-text-h" className="text-lg font-semibold">
          {t.doc.fullText}
        </h2>
        {tools}
      </div>
      {state.isPending ? (
        <div className="mt-3 space-y-2" aria-busy="true">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} className="h-4 w-full" />
          ))}
        </div>
      ) : state.isError || !state.prepared?.html.trim() ? (
        <Notice className="mt-3">{t.doc.noText}</Notice>
      ) : (
        <div ref={textRef} className="prose-judgment mt-3" data-testid="full-text" dangerouslySetInnerHTML={{ __html: html ?? state.prepared.html }} />
      )}
    </section>
  );
}
