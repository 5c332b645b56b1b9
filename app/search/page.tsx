import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { SearchPage } from "@/components/search/search-page";
import { pageSearchFirstPage } from "@/lib/api/page-search";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.search.title, description: t.search.description };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Server shell; the search itself is one client island driven by the URL. Its first page of results is searched here
 * (same rules as the API, lib/api/page-search.ts) so the results are in the HTML; later pages are fetched by the client.
 * No <Suspense> around the island: the page is dynamic (useSearchParams needs no boundary then), and a boundary let
 * React send a short placeholder first and the results later in a hidden block swapped in by script, so the footer
 * painted in view and then jumped (CLS 0.086). Without it the results are in the first HTML, visible even
 * without JavaScript.
 */
export default async function SearchRoute({ searchParams }: Props) {
  const [{ t }, initial] = await Promise.all([getI18n(), searchParams.then(pageSearchFirstPage)]);
  return (
    <>
      <PageHeader title={t.search.title} />
      <SearchPage initial={initial} />
    </>
  );
}
