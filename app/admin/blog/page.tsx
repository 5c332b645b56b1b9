import type { Metadata } from "next";
import { AdminBlog } from "@/components/content/admin-blog";
import { AdminGate, ContentAdminNav } from "@/components/content/admin-gate";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";
import { contentAdminLinks } from "@/components/content/admin-links";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.content.admin.blogTitle, robots: { index: false } };
}

export default async function AdminBlogPage() {
  const [{ t }, user] = await Promise.all([getI18n(), getSessionUser()]);
  return (
    <AdminGate user={user}>
      <PageHeader title={t.content.admin.blogTitle} />
      <ContentAdminNav label={t.content.admin.nav} items={contentAdminLinks(t)} current="/admin/blog" />
      <AdminBlog />
    </AdminGate>
  );
}
