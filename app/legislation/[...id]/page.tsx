import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { citingFiltersOf, citingParams } from "@/components/citations/filters";
import { ProvisionView } from "@/components/citations/provision-view";
import { Notice } from "@/components/ui/notice";
import { pageProvision } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

type Props = { params: Promise<{ id: string[] }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 20;

/** The path's segments as the provision id's parts ("§1" may arrive percent-encoded). */
function segmentsOf(id: string[]): string[] {
  return id.map((s) => {
    try {
      return s.includes("%") ? decodeURIComponent(s) : s;
    } catch {
      return s;
    }
  });
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

async function read(params: Props["params"], searchParams: Props["searchParams"]) {
  const [{ id }, sp] = await Promise.all([params, searchParams]);
  const filters = citingFiltersOf((k) => first(sp[k]));
  const offset = Math.max(0, Math.min(100_000, Math.floor(Number(first(sp.offset)) || 0)));
  const query = citingParams(filters, { limit: PAGE_SIZE, offset: offset - (offset % PAGE_SIZE) }).toString();
  return { filters, ...(await pageProvision(segmentsOf(id).join("/"), query)) };
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { body } = await read(params, searchParams);
  return { title: body?.name ?? undefined };
}

export default async function ProvisionPage({ params, searchParams }: Props) {
  const [{ body, status, filters }, { t }] = await Promise.all([read(params, searchParams), getI18n()]);
  if (status === 404 || status === 400 || status === 422) notFound();
  if (!body) return <Notice tone="danger">{t.common.unknownError}</Notice>;
  return <ProvisionView body={body} filters={filters} />;
}
