import type { Metadata } from "next";
import Link from "next/link";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.admin.forbiddenTitle, robots: { index: false } };
}

/**
 * The 403 page, rendered with HTTP status 403 wherever a server component calls `forbidden()` (next/navigation,
 * `experimental.authInterrupts`). Only the admin area does: a signed-in visitor without the admin role.
 */
export default async function Forbidden() {
  const { t } = await getI18n();
  return (
    <section aria-labelledby="forbidden-h" className="mx-auto max-w-xl py-10 text-center" data-testid="admin-forbidden">
      <p className="text-5xl font-semibold text-muted" aria-hidden="true">
        403
      </p>
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
