import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { ApiReference } from "@/components/developers/api-reference";
import { TryIt } from "@/components/developers/try-it";
import { config } from "@/lib/config";
import { getI18n } from "@/lib/i18n/server";
import { fmt, plural } from "@/lib/i18n/locale";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.developers.title, description: t.developers.description };
}

const OPENAPI_URL = "/api/v1/openapi.json";

/** /developers: the reference API's documentation (public, D-16 allowlist), a "try it" box and the rendered contract. */
export default async function DevelopersPage() {
  const { locale, t } = await getI18n();
  const D = t.developers;
  return (
    <article className="space-y-8">
      <PageHeader title={D.title} lead={D.description} />
      <section className="max-w-3xl space-y-2 text-ink/90">
        <p>
          {fmt(D.intro, { perHour: plural(locale, config().API_KEY_RATE_LIMIT_PER_HOUR, D.requestsPerHour) })} {D.errorsAs}{" "}
          <code>{"{error, message, details, status_code}"}</code>.
        </p>
        <p className="flex flex-wrap gap-4">
          <a className="underline" href="/settings?tab=api-keys">
            {D.getKey}
          </a>
          <a className="underline" href={OPENAPI_URL}>
            {D.openapiLink}
          </a>
        </p>
      </section>
      <section aria-labelledby="try-title" className="max-w-3xl">
        <h2 id="try-title" className="text-lg font-semibold">
          {D.tryTitle}
        </h2>
        <p className="mb-4 mt-1 text-sm text-muted">{D.tryLead}</p>
        <TryIt openapiUrl={OPENAPI_URL} />
      </section>
      <section aria-labelledby="ref-title">
        <h2 id="ref-title" className="mb-4 text-lg font-semibold">
          {D.referenceTitle}
        </h2>
        <ApiReference url={OPENAPI_URL} />
      </section>
    </article>
  );
}
