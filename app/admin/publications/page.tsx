import type { Metadata } from "next";
import { AdminPublications } from "@/components/content/admin-publications";
import { AdminGate, ContentAdminNav } from "@/components/content/admin-gate";
import { contentAdminLinks } from "@/components/content/admin-links";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.content.admin.publicationsTitle, robots: { index: false } };
}

export default async function AdminPublicationsPage() {
  const [{ t }, user] = await Promise.all([getI18n(), getSessionUser()]);
  return (
    <AdminGate user={user}>
      <PageHeader title={t.content.admin.publicationsTitle} />
      <ContentAdminNav label={t.content.admin.nav} items={contentAdminLinks(t)} current="/admin/publications" />
      <AdminPublications />
    </AdminGate>
  );
}
