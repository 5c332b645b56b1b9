"use client";

import { RunExtractionButton } from "@/components/extraction/run-extraction";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { cx } from "@/components/ui/cx";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { Pagination } from "@/components/pagination";
import { PageHeader } from "@/components/page-header";
import { ApiRequestError, errorMessage } from "@/lib/client/api";
import { getCollection, listCollectionDocuments, removeDocuments } from "@/lib/client/collections-api";
import { ExportButton } from "@/components/export/export-button";
import { emit } from "@/lib/client/track";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, plural } from "@/lib/i18n/locale";
import { RenameDialog } from "./collections-list";
import { CollectionArguments } from "@/components/documents/assistant-panel";

const PAGE = 50;
/** Column presets of the export (the server's MEMBER_PRESETS). */
const PRESETS = ["basic", "citation", "full"] as const;
type ExportPreset = (typeof PRESETS)[number];

/** /collections/[id]: the documents table with remove, select and bulk remove; a streamed CSV/XLSX/JSONL export with a column preset. */
export function CollectionDetail({ id }: { id: string }) {
  const { locale, t } = useI18n();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [preset, setPreset] = useState<ExportPreset>("basic");
  const [renaming, setRenaming] = useState(false);

  const coll = useQuery({ queryKey: ["collection", id], queryFn: () => getCollection(id) });
  const docs = useQuery({ queryKey: ["collection-docs", id, page], queryFn: () => listCollectionDocuments(id, PAGE, (page - 1) * PAGE), placeholderData: keepPreviousData });
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: ["collection-docs", id] }), qc.invalidateQueries({ queryKey: ["collection", id] }), qc.invalidateQueries({ queryKey: ["collections"] })]);
  const remove = useMutation({
    mutationFn: (ids: string[]) => removeDocuments(id, ids),
    onSuccess: () => {
      setSelected(new Set());
      void refresh();
    },
  });

  if (coll.isError) {
    const missing = coll.error instanceof ApiRequestError && (coll.error.status === 404 || coll.error.status === 400);
    return (
      <div className="space-y-4">
        <Notice tone="danger">{missing ? t.coll.notFound : fmt(t.coll.loadError, { message: errorMessage(coll.error, t.common.unknownError) })}</Notice>
        <Link href="/collections" className="text-brand underline">
          {t.coll.back}
        </Link>
      </div>
    );
  }

  const rows = docs.data?.documents ?? [];
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const pages = Math.max(1, Math.ceil((docs.data?.total ?? 0) / PAGE));
  return (
    <div className="space-y-5">
      <Link href="/collections" className="text-sm text-brand underline">
        ← {t.coll.back}
      </Link>
      <PageHeader
        title={coll.data ? <span data-testid="collection-name">{coll.data.name}</span> : <Skeleton className="h-9 w-64" />}
        lead={coll.data ? `${coll.data.description ? `${coll.data.description} · ` : ""}${plural(locale, coll.data.document_count, t.coll.count)}` : undefined}
        actions={
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={() => setRenaming(true)} disabled={!coll.data}>
              {t.common.rename}
            </Button>
            <RunExtractionButton collectionId={id} />
          </div>
        }
      />

      <div className="flex flex-wrap items-end gap-2 rounded-card border border-line bg-surface p-3">
        <div>
          <label htmlFor="export-preset" className="mb-1 block text-xs font-medium">
            {t.coll.preset}
          </label>
          <select id="export-preset" className={cx(controlClass, "h-9 w-44")} value={preset} onChange={(e) => setPreset(e.target.value as ExportPreset)}>
            {PRESETS.map((p) => (
              <option key={p} value={p}>
                {t.coll.presets[p]}
              </option>
            ))}
          </select>
        </div>
        <div className="basis-full">
          <ExportButton
            what={t.exports.members}
            hint={t.coll.exportAll}
            disabled={!coll.data}
            href={(format, headers) => `/api/collections/${encodeURIComponent(id)}/export?format=${format}&headers=${headers}&preset=${preset}`}
            onDone={(format, rows) => emit("judgment_exported", { format, count: rows ?? coll.data?.document_count ?? 0, preset })}
          />
        </div>
      </div>

      <section aria-labelledby="docs-h" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="docs-h" className="text-lg font-semibold">
            {t.coll.documents}
          </h2>
          <Button variant="danger" size="sm" disabled={selected.size === 0 || remove.isPending} onClick={() => remove.mutate([...selected])}>
            {fmt(t.coll.removeSelected, { count: selected.size })}
          </Button>
        </div>
        {remove.isError ? <Notice tone="danger">{errorMessage(remove.error, t.common.unknownError)}</Notice> : null}
        <CollectionArguments documentIds={[...selected]} />
        {docs.isPending ? (
          <div className="space-y-2">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} className="h-11 w-full" />
            ))}
          </div>
        ) : docs.isError ? (
          <Notice tone="danger">{fmt(t.coll.loadError, { message: errorMessage(docs.error, t.common.unknownError) })}</Notice>
        ) : rows.length === 0 ? (
          <p className="rounded-card border border-dashed border-line-strong p-6 text-center text-muted">{t.coll.noDocuments}</p>
        ) : (
          <div className="relative overflow-x-auto rounded-card border border-line bg-surface">
            <table className="w-full min-w-[36rem] text-left text-sm">
              <caption className="sr-only">{t.coll.documents}</caption>
              <thead className="border-b border-line bg-sunken text-muted">
                <tr>
                  <th scope="col" className="w-10 px-3 py-2">
                    <input
                      type="checkbox"
                      className="size-4 accent-brand"
                      aria-label={t.coll.selectAll}
                      checked={allOnPage}
                      onChange={(e) => setSelected(e.target.checked ? new Set([...selected, ...rows.map((r) => r.id)]) : new Set([...selected].filter((x) => !rows.some((r) => r.id === x))))}
                    />
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">{t.extr.colTitle}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t.extr.colCase}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t.extr.colJurisdiction}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t.extr.colDate}</th>
                  <th scope="col" className="px-3 py-2"><span className="sr-only">{t.coll.remove}</span></th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id} className="h-11 border-b border-line last:border-0 align-top">
                    <td className="px-3 py-2">
                      <input
                        type="checkbox"
                        className="size-4 accent-brand"
                        aria-label={fmt(t.coll.selectRow, { title: r.title ?? r.case_number ?? r.id })}
                        checked={selected.has(r.id)}
                        onChange={(e) => {
                          const next = new Set(selected);
                          if (e.target.checked) next.add(r.id);
                          else next.delete(r.id);
                          setSelected(next);
                        }}
                      />
                    </td>
                    <td className="px-3 py-2">
                      <Link href={`/documents/${encodeURIComponent(r.id)}`} className="line-clamp-2 font-medium text-brand hover:underline">
                        {r.title ?? r.case_number ?? r.id}
                      </Link>
                    </td>
                    <td className="px-3 py-2">{r.case_number ?? t.common.none}</td>
                    <td className="px-3 py-2">{r.jurisdiction ? <Badge tone="brand">{r.jurisdiction}</Badge> : t.common.none}</td>
                    <td className="px-3 py-2">{formatDate(locale, r.decision_date)}</td>
                    <td className="px-3 py-2 text-right">
                      <Button variant="ghost" size="sm" onClick={() => remove.mutate([r.id])} disabled={remove.isPending}>
                        {t.coll.remove}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination page={page} pages={pages} onPage={setPage} label={t.coll.documents} />
      </section>

      <RenameDialog
        collection={renaming && coll.data ? coll.data : null}
        onClose={() => setRenaming(false)}
        onDone={() => {
          setRenaming(false);
          void refresh();
        }}
      />
    </div>
  );
}
