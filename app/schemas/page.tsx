import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SchemasPage } from "@/components/extraction/schema-editor";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.extraction.schemasTitle, description: t.extraction.schemasLead };
}

export default async function SchemasRoute() {
  if (!(await getSessionUser())) redirect("/sign-in?next=/schemas");
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.extraction.schemasTitle} lead={t.extraction.schemasLead} />
      <SchemasPage />
    </>
  );
}
