import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SearchHistory } from "@/components/accounts/search-history";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.cohorts.history.title, description: t.cohorts.history.description };
}

/** The signed-in user's own search history (spec: the user's own search history is listed for them). */
export default async function HistoryPage() {
  if (!(await getSessionUser())) redirect("/sign-in?next=/history");
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.cohorts.history.title} lead={t.cohorts.history.description} />
      <SearchHistory />
    </>
  );
}
