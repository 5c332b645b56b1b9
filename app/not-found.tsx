import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.errors.notFoundTitle, description: t.errors.notFoundBody };
}

export default async function NotFound() {
  const { t } = await getI18n();
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold">{t.errors.notFoundTitle}</h1>
      <p className="mt-2 text-muted">{t.errors.notFoundBody}</p>
      <div className="mt-6 flex justify-center gap-3">
        <Link href="/search" className={buttonClass("primary")}>
          {t.errors.goSearch}
        </Link>
        <Link href="/" className={buttonClass("secondary")}>
          {t.errors.goHome}
        </Link>
      </div>
    </div>
  );
}
