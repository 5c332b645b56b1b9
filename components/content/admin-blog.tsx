"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { Markdown } from "@/components/content/markdown";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataTableColumns } from "@/components/ui/data-table";
import { FieldError, FieldHint, Input, Label, Textarea, controlClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError } from "@/lib/client/api";
import { requestErrorText } from "@/lib/client/validation";
import { createPost, deletePost, getAdminPost, listAdminPosts, patchPost, type BlogPostAdmin } from "@/lib/client/content-api";
import type { BlogAdminPage } from "@/lib/backend/responses";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate } from "@/lib/i18n/locale";
import { BLOG_LIMITS, BLOG_STATUSES, type BlogStatus } from "@/lib/schema/requests/content";

type Row = BlogAdminPage["posts"][number];

const col = createColumnHelper<Row>();

const STATUS_TONE: Record<BlogStatus, Tone> = { draft: "neutral", published: "ok", archived: "warn" };

interface Draft {
  id: string | null;
  title: string;
  slug: string;
  excerpt: string;
  body: string;
  category: string;
  tags: string;
  publishedAt: string;
  authorName: string;
}

const emptyDraft: Draft = { id: null, title: "", slug: "", excerpt: "", body: "", category: "", tags: "", publishedAt: "", authorName: "" };

/** datetime-local wants "YYYY-MM-DDTHH:mm" in local time. */
function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const fromPost = (p: BlogPostAdmin): Draft => ({
  id: p.id,
  title: p.title,
  slug: p.slug,
  excerpt: p.excerpt,
  body: p.body,
  category: p.category ?? "",
  tags: p.tags.join(", "),
  publishedAt: toLocalInput(p.published_at),
  authorName: p.author_name,
});

/** /admin/blog: the posts table (status filter, text filter and sorting of the page, pagination), the editor with live preview, status actions, delete. */
export function AdminBlog() {
  const { locale, t } = useI18n();
  const A = t.content.admin;
  const [status, setStatus] = useState<BlogStatus | "">("");
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [message, setMessage] = useState<{ tone: "ok" | "danger"; text: string } | null>(null);
  const [confirm, setConfirm] = useState<Row | null>(null);
  const [busy, setBusy] = useState(false);

  const query = useQuery({ queryKey: ["admin-posts", page, status], queryFn: () => listAdminPosts({ page, status: status || undefined }), placeholderData: keepPreviousData });
  const data = query.data ?? null;
  const loadFailed = query.isError;
  const load = async () => {
    await query.refetch();
  };

  const labels = {
    title: A.editor.title,
    slug: A.editor.slug,
    excerpt: A.editor.excerpt,
    body: A.editor.body,
    category: A.editor.category,
    tags: A.editor.tags,
    "tags.*": A.editor.tags,
    published_at: A.editor.publishedAt,
    author_name: A.editor.authorName,
  };
  const describe = (e: unknown) => (e instanceof ApiRequestError ? requestErrorText(e, { locale, t }, labels, t.common.unknownError) : t.common.unknownError);

  async function act(fn: () => Promise<unknown>, done: string) {
    setBusy(true);
    setMessage(null);
    try {
      await fn();
      setMessage({ tone: "ok", text: done });
      await load();
      return true;
    } catch (e) {
      setMessage({ tone: "danger", text: describe(e) });
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function save(nextStatus?: BlogStatus) {
    if (!draft) return;
    const body = {
      title: draft.title,
      ...(draft.slug.trim() ? { slug: draft.slug.trim() } : {}),
      excerpt: draft.excerpt,
      body: draft.body,
      category: draft.category.trim() || null,
      tags: draft.tags
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
      ...(draft.publishedAt ? { published_at: new Date(draft.publishedAt).toISOString() } : {}),
      ...(draft.authorName.trim() ? { author_name: draft.authorName.trim() } : {}),
      ...(nextStatus ? { status: nextStatus } : {}),
    };
    let saved: BlogPostAdmin | null = null;
    const ok = await act(async () => {
      saved = draft.id ? await patchPost(draft.id, body) : await createPost(body);
    }, A.saved);
    if (ok && saved) setDraft(fromPost(saved));
  }

  async function edit(id: string) {
    try {
      setDraft(fromPost(await getAdminPost(id)));
    } catch (e) {
      setMessage({ tone: "danger", text: describe(e) });
    }
  }

  const statusLabel = (r: Pick<Row, "status" | "published_at">) =>
    r.status === "published" && r.published_at && new Date(r.published_at) > new Date() ? A.status.scheduled : A.status[r.status];

  const columns: DataTableColumns<Row> = [
    col.accessor("title", {
      header: A.columns.title,
      cell: ({ row: { original: r } }) => (
        <>
          <span className="font-medium">{r.title}</span>
          <span className="block text-xs text-muted">/{r.slug}</span>
        </>
      ),
    }),
    col.accessor((r) => statusLabel(r), { id: "status", header: A.columns.status, cell: (c) => <Badge tone={STATUS_TONE[c.row.original.status]}>{c.getValue()}</Badge> }),
    col.accessor("published_at", {
      header: A.columns.published,
      sortUndefined: "last",
      cell: (c) => (c.getValue() ? formatDate(locale, c.getValue()) : t.common.none),
    }),
    col.accessor("view_count", { header: A.columns.views }),
    col.display({
      id: "actions",
      header: A.columns.actions,
      cell: ({ row: { original: r } }) => (
        <div className="flex flex-wrap gap-1">
          <Button size="sm" variant="secondary" onClick={() => void edit(r.id)} aria-label={`${A.edit}: ${r.title}`}>
            {A.edit}
          </Button>
          {r.status !== "published" ? (
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => void act(() => patchPost(r.id, { status: "published" }), A.saved)} aria-label={`${A.publish}: ${r.title}`}>
              {A.publish}
            </Button>
          ) : (
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => void act(() => patchPost(r.id, { status: "draft" }), A.saved)} aria-label={`${A.unpublish}: ${r.title}`}>
              {A.unpublish}
            </Button>
          )}
          {r.status !== "archived" ? (
            <Button size="sm" variant="ghost" disabled={busy} onClick={() => void act(() => patchPost(r.id, { status: "archived" }), A.saved)} aria-label={`${A.archive}: ${r.title}`}>
              {A.archive}
            </Button>
          ) : null}
          <Button size="sm" variant="danger" disabled={busy} onClick={() => setConfirm(r)} aria-label={`${t.common.delete}: ${r.title}`}>
            {t.common.delete}
          </Button>
        </div>
      ),
    }),
  ];

  return (
    <div className="space-y-6">
      {message ? <Notice tone={message.tone}>{message.text}</Notice> : null}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <Label htmlFor="blog-status">{A.statusFilter}</Label>
          <select
            id="blog-status"
            className={`${controlClass} h-10`}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as BlogStatus | "");
              setPage(1);
            }}
          >
            <option value="">{A.all}</option>
            {BLOG_STATUSES.map((s) => (
              <option key={s} value={s}>
                {A.status[s]}
              </option>
            ))}
          </select>
        </div>
        <Button onClick={() => setDraft({ ...emptyDraft })}>{A.newPost}</Button>
      </div>

      {loadFailed ? (
        <Notice tone="danger">
          {A.loadError}{" "}
          <Button variant="ghost" size="sm" onClick={() => void load()}>
            {t.common.retry}
          </Button>
        </Notice>
      ) : !data ? (
        <p className="text-muted">{t.common.loading}</p>
      ) : (
        <DataTable
          data={data.posts}
          columns={columns}
          label={A.blogTitle}
          testId="admin-posts"
          getRowId={(r) => r.id}
          empty={<Notice>{A.empty}</Notice>}
          pagination={{ page, pages: data.pages, onPage: setPage, label: A.pagination }}
        />
      )}

      {draft ? (
        <section aria-label={draft.id ? A.edit : A.newPost} className="grid gap-6 rounded-card border border-line bg-surface p-5 lg:grid-cols-2">
          <form
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <div>
              <Label htmlFor="post-title">{A.editor.title}</Label>
              <Input id="post-title" required maxLength={BLOG_LIMITS.title} value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} />
              {draft.title.trim() === "" ? <FieldError>{"1–" + BLOG_LIMITS.title}</FieldError> : null}
            </div>
            <div>
              <Label htmlFor="post-slug">{A.editor.slug}</Label>
              <Input id="post-slug" maxLength={BLOG_LIMITS.slug} value={draft.slug} onChange={(e) => setDraft({ ...draft, slug: e.target.value })} aria-describedby="post-slug-hint" />
              <FieldHint id="post-slug-hint">{A.editor.slugHint}</FieldHint>
            </div>
            <div>
              <Label htmlFor="post-excerpt">{A.editor.excerpt}</Label>
              <Textarea id="post-excerpt" rows={2} maxLength={BLOG_LIMITS.excerpt} value={draft.excerpt} onChange={(e) => setDraft({ ...draft, excerpt: e.target.value })} />
            </div>
            <div>
              <Label htmlFor="post-body">{A.editor.body}</Label>
              <Textarea id="post-body" rows={14} maxLength={BLOG_LIMITS.body} value={draft.body} onChange={(e) => setDraft({ ...draft, body: e.target.value })} className="font-mono" />
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <div>
                <Label htmlFor="post-category">{A.editor.category}</Label>
                <Input id="post-category" maxLength={BLOG_LIMITS.category} value={draft.category} onChange={(e) => setDraft({ ...draft, category: e.target.value })} />
              </div>
              <div>
                <Label htmlFor="post-tags">{A.editor.tags}</Label>
                <Input id="post-tags" value={draft.tags} onChange={(e) => setDraft({ ...draft, tags: e.target.value })} />
              </div>
              <div>
                <Label htmlFor="post-published-at">{A.editor.publishedAt}</Label>
                <Input id="post-published-at" type="datetime-local" value={draft.publishedAt} onChange={(e) => setDraft({ ...draft, publishedAt: e.target.value })} />
              </div>
              <div>
                <Label htmlFor="post-author">{A.editor.authorName}</Label>
                <Input id="post-author" maxLength={BLOG_LIMITS.authorName} value={draft.authorName} onChange={(e) => setDraft({ ...draft, authorName: e.target.value })} />
              </div>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy || draft.title.trim() === ""}>
                {t.common.save}
              </Button>
              <Button variant="secondary" disabled={busy || draft.title.trim() === ""} onClick={() => void save("published")}>
                {A.publish}
              </Button>
              <Button variant="ghost" onClick={() => setDraft(null)}>
                {A.editor.close}
              </Button>
            </div>
          </form>
          <div aria-live="polite">
            <h2 className="mb-2 text-sm font-semibold text-muted">{A.editor.preview}</h2>
            <div className="rounded-card border border-line p-4" data-testid="post-preview">
              <h3 className="mb-3 text-2xl font-semibold">{draft.title}</h3>
              <Markdown source={draft.body} />
            </div>
          </div>
        </section>
      ) : null}

      <ConfirmDialog
        open={confirm !== null}
        title={confirm ? fmt(A.deleteConfirmTitle, { title: confirm.title }) : ""}
        description={A.deleteConfirmBody}
        confirmLabel={t.common.delete}
        cancelLabel={t.common.cancel}
        busy={busy}
        onCancel={() => setConfirm(null)}
        onConfirm={async () => {
          if (!confirm) return;
          const id = confirm.id;
          setConfirm(null);
          if (await act(() => deletePost(id), A.deleted)) setDraft((d) => (d?.id === id ? null : d));
        }}
      />
    </div>
  );
}
