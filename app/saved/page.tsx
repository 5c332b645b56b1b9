import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SavedList } from "@/components/accounts/saved-list";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.accounts.saved.title, description: t.accounts.saved.description };
}

export default async function SavedPage() {
  if (!(await getSessionUser())) redirect("/sign-in?next=/saved");
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.accounts.saved.title} lead={t.accounts.saved.description} />
      <SavedList />
    </>
  );
}
