import type { Metadata } from "next";
import { forbidden, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AdminNav } from "@/components/admin/admin-nav";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.admin.overview.title, robots: { index: false } };
}

/**
 * Every /admin page: anonymous visitors go to sign-in (the middleware already sends them there with `next`), a
 * signed-in non-admin gets HTTP 403 with the 403 page (app/forbidden.tsx), admins the panel. The API routes check
 * the role again on every call.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in?next=/admin");
  if (user.role !== "admin") forbidden();
  return (
    <>
      <AdminNav />
      {children}
    </>
  );
}
