import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Notice } from "@/components/ui/notice";
import { DocumentView } from "@/components/documents/document-view";
import { AssistantPanel } from "@/components/documents/assistant-panel";
import { normaliseJudgment } from "@/components/documents/judgment";
import { pageDocument, pageDocumentReferences } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";
import { fmt } from "@/lib/i18n/locale";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The judgment for the page and its <title>: one read per render (pageDocument is cached). */
async function fetchJudgment(id: string) {
  const { raw, html, status } = await pageDocument(id);
  return { judgment: raw ? normaliseJudgment(raw) : null, html, status };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const { t } = await getI18n();
  const { judgment } = await fetchJudgment(id);
  const title = judgment?.title || judgment?.caseNumber || t.doc.titleFallback;
  return {
    title,
    description: judgment?.summary?.slice(0, 160) ?? fmt(t.doc.description, { caseNumber: judgment?.caseNumber ?? "" }),
  };
}

export default async function DocumentPage({ params, searchParams }: Props) {
  const [{ id }, sp, { t }] = await Promise.all([params, searchParams, getI18n()]);
  const [{ judgment, html, status }, references] = await Promise.all([fetchJudgment(id), pageDocumentReferences(id)]);
  if (status === 404 || status === 400 || status === 422) notFound();
  if (!judgment) return <Notice tone="danger">{t.common.unknownError}</Notice>;
  const f = typeof sp.f === "string" ? sp.f : null;
  const q = typeof sp.q === "string" ? sp.q.slice(0, 1000) : "";
  return <><DocumentView judgment={judgment} f={f} q={q} html={html} references={references} /><AssistantPanel documentId={judgment.id} defaultQuery={[...judgment.keywords, ...judgment.legalTopics].join(", ")} /></>;
}
