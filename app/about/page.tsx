import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { CORPUS } from "@/components/corpus-facts";
import { getI18n } from "@/lib/i18n/server";
import { fmt, plural } from "@/lib/i18n/locale";
import { GROUPS } from "@/lib/schema";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.about.title, description: t.about.description };
}

export default async function AboutPage() {
  const { locale, t } = await getI18n();
  const A = t.about;
  const groups = GROUPS.filter((g) => g.id !== "operational")
    .map((g) => g[locale].toLowerCase())
    .join(", ");
  const sections = [
    { title: A.corpusTitle, body: [fmt(A.corpus, { judgments: plural(locale, CORPUS.count, A.corpusJudgments), from: CORPUS.fromYear, to: CORPUS.toYear }), A.demo] },
    { title: A.extractedTitle, body: [fmt(A.extracted, { groups })] },
    { title: A.caveatsTitle, body: [A.caveats1, A.caveats2, A.caveats3] },
    { title: A.accessTitle, body: [A.access] },
  ];
  return (
    <article className="max-w-3xl">
      <PageHeader title={A.title} lead={A.description} />
      <div className="space-y-8">
        {sections.map((s) => (
          <section key={s.title}>
            <h2 className="text-lg font-semibold">{s.title}</h2>
            {s.body.map((p) => (
              <p key={p} className="mt-2 text-ink/90">
                {p}
              </p>
            ))}
          </section>
        ))}
      </div>
    </article>
  );
}
