import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CollectionsList } from "@/components/collections/collections-list";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.coll.title, description: t.coll.description };
}

export default async function CollectionsPage() {
  if (!(await getSessionUser())) redirect("/sign-in?next=/collections");
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.coll.title} lead={t.coll.description} />
      <CollectionsList />
    </>
  );
}
