import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Input, Label, controlClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { pageBlogCategories, pageBlogList } from "@/lib/api/content-pages";
import { BlogListQuery } from "@/lib/api/content-queries";
import { getI18n } from "@/lib/i18n/server";
import { fmt, formatDate, plural } from "@/lib/i18n/locale";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.content.blog.title, description: t.content.blog.lead, alternates: { types: { "application/rss+xml": "/blog/rss.xml" } } };
}

/** Only the parameters the list understands, one value each (anything else is ignored on the page). */
function listQuery(sp: Record<string, string | string[] | undefined>) {
  const pick = (k: string) => (typeof sp[k] === "string" ? (sp[k] as string) : undefined);
  const raw = Object.fromEntries(["page", "category", "tag", "q", "sort", "order"].map((k) => [k, pick(k)]).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = BlogListQuery.safeParse(raw);
  return parsed.success ? parsed.data : BlogListQuery.parse({});
}

function href(q: Record<string, string | number | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== "" && !(k === "page" && v === 1)) sp.set(k, String(v));
  const s = sp.toString();
  return s ? `/blog?${s}` : "/blog";
}

export default async function BlogPage({ searchParams }: Props) {
  const [{ locale, t }, sp] = await Promise.all([getI18n(), searchParams]);
  const B = t.content.blog;
  const q = listQuery(sp);
  const [list, cats] = await Promise.all([pageBlogList(q).catch(() => null), pageBlogCategories().catch(() => ({ categories: [] }))]);
  const base = { category: q.category, tag: q.tag, q: q.q, sort: q.sort === "published_at" ? undefined : q.sort, order: q.order === "desc" ? undefined : q.order };
  const filtered = Boolean(q.category || q.tag || q.q);
  const sortValue = q.sort === "title" ? "title" : q.order === "asc" ? "oldest" : "newest";
  return (
    <div className="max-w-4xl">
      <PageHeader
        title={B.title}
        lead={B.lead}
        actions={
          <a href="/blog/rss.xml" className={buttonClass("secondary", "sm")}>
            {B.rss}
          </a>
        }
      />
      <form method="get" action="/blog" role="search" className="mb-6 grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end">
        <div>
          <Label htmlFor="blog-q">{B.searchLabel}</Label>
          <Input id="blog-q" name="q" type="search" defaultValue={q.q ?? ""} placeholder={B.searchPlaceholder} maxLength={200} />
        </div>
        <div>
          <Label htmlFor="blog-category">{B.category}</Label>
          <select id="blog-category" name="category" defaultValue={q.category ?? ""} className={`${controlClass} h-10`}>
            <option value="">{B.allCategories}</option>
            {cats.categories.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({c.count})
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="blog-sort">{B.sort}</Label>
          <select id="blog-sort" name="sort" defaultValue={sortValue === "title" ? "title" : ""} className={`${controlClass} h-10`}>
            <option value="">{B.newest}</option>
            <option value="title">{B.byTitle}</option>
          </select>
        </div>
        {q.tag ? <input type="hidden" name="tag" value={q.tag} /> : null}
        <button type="submit" className={buttonClass("primary", "md")}>
          {B.search}
        </button>
      </form>
      {filtered ? (
        <p className="mb-4 flex flex-wrap items-center gap-2 text-sm text-muted">
          {q.tag ? (
            <span>
              {B.tagged}: <Badge>#{q.tag}</Badge>
            </span>
          ) : null}
          <Link href="/blog" className="text-brand underline">
            {B.clearFilters}
          </Link>
        </p>
      ) : null}
      {!list ? (
        <Notice tone="danger">{B.loadError}</Notice>
      ) : list.posts.length === 0 ? (
        <Notice>{filtered ? B.empty : B.emptyAll}</Notice>
      ) : (
        <>
          <p className="sr-only" aria-live="polite">
            {plural(locale, list.total, B.results)}
          </p>
          <ul className="space-y-6" data-testid="blog-list">
            {list.posts.map((p) => (
              <li key={p.id} className="rounded-card border border-line bg-surface p-5">
                <p className="text-xs text-muted">
                  {formatDate(locale, p.published_at)}
                  {p.category ? (
                    <>
                      {" · "}
                      <Link href={href({ ...base, category: p.category })} className="hover:underline">
                        {p.category}
                      </Link>
                    </>
                  ) : null}
                  {" · "}
                  {fmt(B.by, { author: p.author_name })}
                </p>
                <h2 className="mt-1 text-xl font-semibold">
                  <Link href={`/blog/${encodeURIComponent(p.slug)}`} className="hover:underline">
                    {p.title}
                  </Link>
                </h2>
                {p.excerpt ? <p className="mt-2 text-ink/90">{p.excerpt}</p> : null}
                {p.tags.length ? (
                  <ul className="mt-3 flex flex-wrap gap-2" aria-label={B.tagged}>
                    {p.tags.map((tag) => (
                      <li key={tag}>
                        <Link href={href({ ...base, tag })} className="text-xs text-brand hover:underline">
                          #{tag}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
          {list.pages > 1 ? (
            <nav aria-label={B.pagination} className="mt-6 flex items-center justify-between gap-2">
              {q.page > 1 ? (
                <Link className={buttonClass("secondary", "sm")} href={href({ ...base, page: q.page - 1 })} rel="prev">
                  ← {t.common.previous}
                </Link>
              ) : (
                <span />
              )}
              <span className="text-sm text-muted" aria-current="page">
                {fmt(t.common.pageOf, { page: q.page, pages: list.pages })}
              </span>
              {q.page < list.pages ? (
                <Link className={buttonClass("secondary", "sm")} href={href({ ...base, page: q.page + 1 })} rel="next">
                  {t.common.next} →
                </Link>
              ) : (
                <span />
              )}
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
