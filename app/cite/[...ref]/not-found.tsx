import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.doc.citeNotFoundTitle };
}

/** No judgment has this citation or case number (or the visitor cannot see it). */
export default async function CiteNotFound() {
  const { t } = await getI18n();
  return (
    <div className="mx-auto max-w-lg py-16 text-center" data-testid="cite-not-found">
      <h1 className="text-2xl font-semibold">{t.doc.citeNotFoundTitle}</h1>
      <p className="mt-2 text-muted">{t.doc.citeNotFoundBody}</p>
      <div className="mt-6 flex justify-center gap-3">
        <Link href="/search" className={buttonClass("primary")}>
          {t.errors.goSearch}
        </Link>
      </div>
    </div>
  );
}
