import type { Metadata } from "next";
import { BibtexButton } from "@/components/content/bibtex-button";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Label, controlClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { pagePublications } from "@/lib/api/content-pages";
import { bibtex } from "@/lib/backend/content/publications";
import { getI18n } from "@/lib/i18n/server";
import { fmt } from "@/lib/i18n/locale";
import { PUBLICATION_KINDS, type PublicationKind } from "@/lib/schema/requests/content";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.content.publications.title, description: t.content.publications.lead };
}

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

export default async function PublicationsPage({ searchParams }: Props) {
  const [{ t }, sp] = await Promise.all([getI18n(), searchParams]);
  const P = t.content.publications;
  const kindRaw = one(sp.kind);
  const kind = PUBLICATION_KINDS.includes(kindRaw as PublicationKind) ? (kindRaw as PublicationKind) : undefined;
  const yearRaw = one(sp.year);
  const year = yearRaw && /^\d{4}$/.test(yearRaw) ? Number(yearRaw) : undefined;
  const page = Math.max(1, Number(one(sp.page)) || 1);
  const list = await pagePublications({ page, limit: 20, kind, year }).catch(() => null);
  const link = (p: number) => `/publications?${new URLSearchParams({ ...(kind ? { kind } : {}), ...(year ? { year: String(year) } : {}), page: String(p) })}`;
  return (
    <div className="max-w-4xl">
      <PageHeader title={P.title} lead={P.lead} />
      <form method="get" action="/publications" className="mb-6 flex flex-wrap items-end gap-3">
        <div>
          <Label htmlFor="pub-kind">{P.kind}</Label>
          <select id="pub-kind" name="kind" defaultValue={kind ?? ""} className={`${controlClass} h-10`}>
            <option value="">{P.allKinds}</option>
            {PUBLICATION_KINDS.map((k) => (
              <option key={k} value={k}>
                {P.kinds[k]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="pub-year">{P.year}</Label>
          <select id="pub-year" name="year" defaultValue={year ? String(year) : ""} className={`${controlClass} h-10`}>
            <option value="">{P.allYears}</option>
            {(list?.facets.years ?? []).map((y) => (
              <option key={y.value} value={y.value}>
                {y.value} ({y.count})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass("primary", "md")}>
          {P.filter}
        </button>
      </form>
      {!list ? (
        <Notice tone="danger">{t.common.unknownError}</Notice>
      ) : list.publications.length === 0 ? (
        <Notice>{P.empty}</Notice>
      ) : (
        <ul className="grid gap-4" data-testid="publication-list">
          {list.publications.map((p) => (
            <li key={p.id} className="rounded-card border border-line bg-surface p-5">
              <p className="flex items-center gap-2 text-xs text-muted">
                <Badge tone="brand">{P.kinds[p.kind]}</Badge>
                <span>{p.year}</span>
                {p.venue ? <span>· {p.venue}</span> : null}
              </p>
              <h2 className="mt-2 text-lg font-semibold">{p.url ? <a href={p.url} className="hover:underline" rel="noopener noreferrer">{p.title}</a> : p.title}</h2>
              <p className="mt-1 text-sm text-ink/90">{p.authors.join(", ")}</p>
              {p.abstract ? (
                <details className="mt-2 text-sm">
                  <summary className="cursor-pointer text-brand">{P.abstract}</summary>
                  <p className="mt-1 text-ink/90">{p.abstract}</p>
                </details>
              ) : null}
              <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
                {p.doi ? (
                  <a href={`https://doi.org/${encodeURI(p.doi)}`} className="text-brand hover:underline" rel="noopener noreferrer">
                    {P.doi}: {p.doi}
                  </a>
                ) : null}
                <BibtexButton bibtex={bibtex(p)} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {list && list.pages > 1 ? (
        <nav aria-label={P.pagination} className="mt-6 flex items-center justify-between">
          {page > 1 ? <a className={buttonClass("secondary", "sm")} href={link(page - 1)}>← {t.common.previous}</a> : <span />}
          <span className="text-sm text-muted">{fmt(t.common.pageOf, { page, pages: list.pages })}</span>
          {page < list.pages ? <a className={buttonClass("secondary", "sm")} href={link(page + 1)}>{t.common.next} →</a> : <span />}
        </nav>
      ) : null}
    </div>
  );
}
