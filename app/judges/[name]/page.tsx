import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { Suspense } from "react";
import { AnalysisNav } from "@/components/analysis/analysis-nav";
import { JudgeProfileView } from "@/components/analysis/judge-profile";
import { JudgeSkeleton } from "@/components/analysis/judge-skeleton";
import { PageHeader } from "@/components/page-header";
import { Notice } from "@/components/ui/notice";
import { getSessionUser, pageJudgeKnown, pageJudgeProfile } from "@/lib/api/pages";
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

/** The profile itself, streamed after the page's frame (it may take seconds: see JUDGE_BASELINE_FILL_MS). */
async function Profile({ name }: { name: string }) {
  const { t } = await getI18n();
  const read = await pageJudgeProfile(name);
  if (read.data) return <JudgeProfileView p={read.data} />;
  return <Notice tone="danger">{fmt(t.analysis.judges.loadError, { message: read.message || t.common.unknownError })}</Notice>;
}

/**
 * /judges/{name} (signed in): one judge's fingerprint, read on the server from the address. An unknown judge is the
 * 404 page: checked before anything streams, so the status is a real 404.
 */
export default async function JudgePage({ params }: Props) {
  const segment = (await params).name;
  if (!(await getSessionUser())) redirect(`/sign-in?next=${encodeURIComponent(`/judges/${segment}`)}`);
  const name = judgeName(segment);
  if (!(await pageJudgeKnown(name))) notFound();
  const { t } = await getI18n();
  const tj = t.analysis.judges;
  return (
    <>
      <PageHeader
        title={name}
        lead={tj.description}
        actions={
          <Link className="text-sm text-brand hover:underline" href="/judges">
            {tj.backToJudges}
          </Link>
        }
      />
      <AnalysisNav />
      <Suspense fallback={<JudgeSkeleton />}>
        <Profile name={name} />
      </Suspense>
    </>
  );
}
