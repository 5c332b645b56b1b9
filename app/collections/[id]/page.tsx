import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CollectionDetail } from "@/components/collections/collection-detail";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.coll.title, description: t.coll.description };
}

export default async function CollectionPage({ params }: Props) {
  const { id } = await params;
  if (!(await getSessionUser())) redirect(`/sign-in?next=/collections/${encodeURIComponent(id)}`);
  return <CollectionDetail id={id} />;
}
