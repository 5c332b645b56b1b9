import { notFound, redirect } from "next/navigation";
import { pageIdentity } from "@/lib/api/pages";
import { citationTarget, normaliseCitation } from "@/lib/backend/document-files";
import { createServiceClient } from "@/lib/supabase/server";

type Props = { params: Promise<{ ref: string[] }> };

/** Segments may arrive still escaped ("%5B2015%5D"); a malformed escape is kept as typed. */
function refOf(segments: string[]): string {
  const joined = segments.join("/");
  try {
    return decodeURIComponent(joined);
  } catch {
    return joined;
  }
}

/**
 * The permalink of a judgment by its neutral citation or case number: `/cite/[2015] EWCA Crim 1390`,
 * `/cite/II AKa 516/19` redirect to the judgment page; a case number several judgments share goes to search for it;
 * an unknown one is a 404 with a search link (./not-found.tsx).
 */
export default async function CitePage({ params }: Props) {
  const { ref } = await params;
  const citation = normaliseCitation(refOf(ref));
  const target = await citationTarget(citation, await pageIdentity(), createServiceClient);
  if (target.kind === "one") redirect(`/documents/${encodeURIComponent(target.id)}`);
  if (target.kind === "many") redirect(`/search?q=${encodeURIComponent(`"${citation}"`)}`);
  notFound();
}
