import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PageHeader } from "@/components/page-header";
import { ExtractionsPage } from "@/components/extractions/extractions-page";
import { getSessionUser } from "@/lib/api/pages";
import { pageExtractionsFirstPage } from "@/lib/api/page-extractions";
import { getI18n } from "@/lib/i18n/server";
import { llmConfigured } from "@/lib/llm/provider";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.extr.title, description: t.extr.description };
}

/** Signed-in only (spec: Authentication 5); the middleware redirects too, this is the page's own check. */
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ExtractionsRoute({ searchParams }: Props) {
  if (!(await getSessionUser())) redirect("/sign-in?next=/search/extractions");
  // The first page of results and the default aggregate are read here, so they are in the HTML. No
  // <Suspense> around the island, as on /search: a streamed boundary paints a placeholder first and shifts the layout.
  const [{ t }, initial] = await Promise.all([getI18n(), searchParams.then(pageExtractionsFirstPage)]);
  // The NL box is always shown: without a model its route answers with the rules translator
  // (mode "rules"); llmEnabled only tells the page which mode to label.
  const llmEnabled = llmConfigured();
  return (
    <>
      <PageHeader title={t.extr.title} lead={t.extr.description} />
      <ExtractionsPage llmEnabled={llmEnabled} initial={initial} />
    </>
  );
}
