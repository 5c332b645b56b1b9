"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataTableColumns } from "@/components/ui/data-table";
import { Input, Label, Textarea, controlClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError } from "@/lib/client/api";
import { checkWith, requestErrorText } from "@/lib/client/validation";
import { createPublication, deletePublication, listAdminPublications, patchPublication, type Publication } from "@/lib/client/content-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";
import { CreatePublicationSchema, PUBLICATION_KINDS, PUBLICATION_STATUSES, type PublicationKind } from "@/lib/schema/requests/content";

const col = createColumnHelper<Publication>();

interface Draft {
  id: string | null;
  title: string;
  authors: string;
  venue: string;
  year: string;
  abstract: string;
  url: string;
  doi: string;
  kind: PublicationKind;
  status: "draft" | "published";
}

const emptyDraft = (): Draft => ({ id: null, title: "", authors: "", venue: "", year: String(new Date().getFullYear()), abstract: "", url: "", doi: "", kind: "paper", status: "draft" });

const fromPublication = (p: Publication): Draft => ({
  id: p.id,
  title: p.title,
  authors: p.authors.join("\n"),
  venue: p.venue ?? "",
  year: String(p.year),
  abstract: p.abstract ?? "",
  url: p.url ?? "",
  doi: p.doi ?? "",
  kind: p.kind,
  status: p.status,
});

/** /admin/publications: every record (drafts included), an editor validated with the API's schema, delete with confirmation. */
export function AdminPublications() {
  const i18n = useI18n();
  const { t } = i18n;
  const A = t.content.admin;
  const P = t.content.publications;
  const labels = {
    title: A.editor.title,
    authors: A.editor.authors,
    "authors.*": A.editor.authors,
    kind: P.kind,
    status: A.editor.status,
    venue: A.editor.venue,
    year: P.year,
    url: A.editor.url,
    doi: A.editor.doi,
    abstract: A.editor.abstract,
  };
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [message, setMessage] = useState<{ tone: "ok" | "danger"; text: string } | null>(null);
  const [confirm, setConfirm] = useState<Publication | null>(null);

  const query = useQuery({ queryKey: ["admin-publications", page], queryFn: () => listAdminPublications(page), placeholderData: keepPreviousData });
  const data = query.data ?? null;
  const loadFailed = query.isError;
  const load = async () => {
    await query.refetch();
  };

  async function save() {
    if (!draft) return;
    const body = {
      title: draft.title,
      authors: draft.authors
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean),
      venue: draft.venue.trim() || null,
      year: Number(draft.year),
      abstract: draft.abstract.trim() || null,
      url: draft.url.trim() || null,
      doi: draft.doi.trim() || null,
      kind: draft.kind,
      status: draft.status,
    };
    // The API's own schema, so the editor refuses what the server would.
    const check = checkWith(CreatePublicationSchema, body, i18n, labels);
    if (!check.ok) {
      setMessage({ tone: "danger", text: [...check.errors.values()].join("; ") });
      return;
    }
    try {
      const saved = draft.id ? await patchPublication(draft.id, body) : await createPublication(body);
      setDraft(fromPublication(saved));
      setMessage({ tone: "ok", text: A.saved });
      await load();
    } catch (e) {
      setMessage({ tone: "danger", text: e instanceof ApiRequestError ? requestErrorText(e, i18n, labels, t.common.unknownError) : t.common.unknownError });
    }
  }

  const columns: DataTableColumns<Publication> = [
    col.accessor("title", { header: A.columns.title, cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
    col.accessor((p) => P.kinds[p.kind], { id: "kind", header: A.columns.kind }),
    col.accessor("year", { header: A.columns.year }),
    col.accessor((p) => A.status[p.status], {
      id: "status",
      header: A.columns.status,
      cell: (c) => <Badge tone={c.row.original.status === "published" ? "ok" : "neutral"}>{c.getValue()}</Badge>,
    }),
    col.display({
      id: "actions",
      header: A.columns.actions,
      cell: ({ row: { original: p } }) => (
        <div className="flex gap-1">
          <Button size="sm" variant="secondary" onClick={() => setDraft(fromPublication(p))} aria-label={`${A.edit}: ${p.title}`}>
            {A.edit}
          </Button>
          <Button size="sm" variant="danger" onClick={() => setConfirm(p)} aria-label={`${t.common.delete}: ${p.title}`}>
            {t.common.delete}
          </Button>
        </div>
      ),
    }),
  ];

  return (
    <div className="space-y-6">
      {message ? <Notice tone={message.tone}>{message.text}</Notice> : null}
      <div className="flex justify-end">
        <Button onClick={() => setDraft(emptyDraft())}>{A.newPublication}</Button>
      </div>
      {loadFailed ? (
        <Notice tone="danger">{A.loadError}</Notice>
      ) : !data ? (
        <p className="text-muted">{t.common.loading}</p>
      ) : (
        <DataTable
          data={data.publications}
          columns={columns}
          label={A.publicationsTitle}
          testId="admin-publications"
          getRowId={(p) => p.id}
          empty={<Notice>{A.empty}</Notice>}
          pagination={{ page, pages: data.pages, onPage: setPage, label: A.pagination }}
        />
      )}
      {draft ? (
        <form
          className="grid gap-3 rounded-card border border-line bg-surface p-5 sm:grid-cols-2"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div className="sm:col-span-2">
            <Label htmlFor="pub-title">{A.editor.title}</Label>
            <Input id="pub-title" required maxLength={300} value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} />
          </div>
          <div>
            <Label htmlFor="pub-authors">{A.editor.authors}</Label>
            <Textarea id="pub-authors" rows={3} value={draft.authors} onChange={(e) => setDraft({ ...draft, authors: e.target.value })} />
          </div>
          <div className="space-y-3">
            <div>
              <Label htmlFor="pub-kind-edit">{P.kind}</Label>
              <select id="pub-kind-edit" className={`${controlClass} h-10`} value={draft.kind} onChange={(e) => setDraft({ ...draft, kind: e.target.value as PublicationKind })}>
                {PUBLICATION_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {P.kinds[k]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <Label htmlFor="pub-status-edit">{A.editor.status}</Label>
              <select id="pub-status-edit" className={`${controlClass} h-10`} value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value as Draft["status"] })}>
                {PUBLICATION_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {A.status[s]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div>
            <Label htmlFor="pub-venue">{A.editor.venue}</Label>
            <Input id="pub-venue" maxLength={300} value={draft.venue} onChange={(e) => setDraft({ ...draft, venue: e.target.value })} />
          </div>
          <div>
            <Label htmlFor="pub-year-edit">{P.year}</Label>
            <Input id="pub-year-edit" inputMode="numeric" value={draft.year} onChange={(e) => setDraft({ ...draft, year: e.target.value })} />
          </div>
          <div>
            <Label htmlFor="pub-url">{A.editor.url}</Label>
            <Input id="pub-url" type="url" value={draft.url} onChange={(e) => setDraft({ ...draft, url: e.target.value })} />
          </div>
          <div>
            <Label htmlFor="pub-doi">{A.editor.doi}</Label>
            <Input id="pub-doi" value={draft.doi} onChange={(e) => setDraft({ ...draft, doi: e.target.value })} />
          </div>
          <div className="sm:col-span-2">
            <Label htmlFor="pub-abstract">{A.editor.abstract}</Label>
            <Textarea id="pub-abstract" rows={4} maxLength={5000} value={draft.abstract} onChange={(e) => setDraft({ ...draft, abstract: e.target.value })} />
          </div>
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit">{t.common.save}</Button>
            <Button variant="ghost" onClick={() => setDraft(null)}>
              {A.editor.close}
            </Button>
          </div>
        </form>
      ) : null}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm ? fmt(A.deleteConfirmTitle, { title: confirm.title }) : ""}
        description={A.deleteConfirmBody}
        confirmLabel={t.common.delete}
        cancelLabel={t.common.cancel}
        onCancel={() => setConfirm(null)}
        onConfirm={async () => {
          if (!confirm) return;
          const id = confirm.id;
          setConfirm(null);
          try {
            await deletePublication(id);
            setMessage({ tone: "ok", text: A.deleted });
            if (draft?.id === id) setDraft(null);
            await load();
          } catch (e) {
            setMessage({ tone: "danger", text: e instanceof ApiRequestError ? requestErrorText(e, i18n, labels, t.common.unknownError) : t.common.unknownError });
          }
        }}
      />
    </div>
  );
}
