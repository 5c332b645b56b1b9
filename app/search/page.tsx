import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/page-header";
import { SearchPage } from "@/components/search/search-page";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.search.title, description: t.search.description };
}

/** Server shell; the search itself is one client island driven by the URL. */
export default async function SearchRoute() {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.search.title} />
      <Suspense fallback={<div className="h-40" />}>
        <SearchPage />
      </Suspense>
    </>
  );
}
