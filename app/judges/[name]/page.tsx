import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { AnalysisNav } from "@/components/analysis/analysis-nav";
import { JudgeProfileView } from "@/components/analysis/judge-profile";
import { PageHeader } from "@/components/page-header";
import { Notice } from "@/components/ui/notice";
import { getSessionUser, pageJudgeProfile } from "@/lib/api/pages";
import { fmt } from "@/lib/i18n/locale";
import { getI18n } from "@/lib/i18n/server";

type Props = { params: Promise<{ name: string }> };

/** The segment as the judge's name: Next hands it over still percent-encoded when it holds non-ASCII letters. */
function judgeName(segment: string): string {
  try {
    return decodeURIComponent(segment).trim();
  } catch {
    return segment.trim();
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await getI18n();
  const name = judgeName((await params).name);
  return { title: fmt(t.analysis.judges.profileOf, { name }), description: t.analysis.judges.description };
}

/** /judges/{name} (signed in): one judge's fingerprint, read on the server from the address; an unknown judge is a 404. */
export default async function JudgePage({ params }: Props) {
  const segment = (await params).name;
  if (!(await getSessionUser())) redirect(`/sign-in?next=${encodeURIComponent(`/judges/${segment}`)}`);
  const { t } = await getI18n();
  const tj = t.analysis.judges;
  const name = judgeName(segment);
  const read = await pageJudgeProfile(name);
  if (read.status === 404) notFound();
  return (
    <>
      <PageHeader
        title={read.data?.name ?? name}
        lead={tj.description}
        actions={
          <Link className="text-sm text-brand hover:underline" href="/judges">
            {tj.backToJudges}
          </Link>
        }
      />
      <AnalysisNav />
      {read.data ? (
        <JudgeProfileView p={read.data} />
      ) : (
        <Notice tone="danger">{fmt(tj.loadError, { message: read.message || t.common.unknownError })}</Notice>
      )}
    </>
  );
}
