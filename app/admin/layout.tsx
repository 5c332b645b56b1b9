import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
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
 * signed-in non-admin sees the 403 page, admins the panel. The API routes check the role again on every call.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in?next=/admin");
  const { t } = await getI18n();
  if (user.role !== "admin") {
    return (
      <section aria-labelledby="forbidden-h" className="mx-auto max-w-xl py-10 text-center" data-testid="admin-forbidden">
        <p className="text-5xl font-semibold text-muted">403</p>
        <h1 id="forbidden-h" className="mt-2 text-2xl font-semibold">
          {t.admin.forbiddenTitle}
        </h1>
        <p className="mt-2 text-muted">{t.admin.forbiddenBody}</p>
        <p className="mt-4">
          <Link href="/" className="font-medium text-brand underline">
            {t.admin.backHome}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <>
      <AdminNav />
      {children}
    </>
  );
}
