import type { Metadata } from "next";
import { DocumentsView } from "@/components/admin/documents-view";
import { PageHeader } from "@/components/page-header";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.admin.documents.title, robots: { index: false } };
}

export default async function AdminDocumentsViewPage() {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.admin.documents.title} lead={t.admin.documents.lead} />
      <DocumentsView />
    </>
  );
}
