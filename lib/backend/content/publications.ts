/**
 * Publications: the group's papers, datasets, reports and software, over the publications RPCs
 * (supabase/migrations/20261125110100_publications_contact.sql). Everything runs with the caller's client: RLS shows
 * published records to everyone and every record to admins, and lets only admins write.
 */
import type { DbClient } from "@/lib/supabase/db-client";
import type { Json } from "@/lib/supabase/database.types";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { isUuid } from "@/lib/schema/uuid";
import type { CreatePublication, PatchPublication, PublicationKind } from "@/lib/schema/requests/content";
import { recordAdminAction } from "../admin-audit";
import { countVisibleCollections } from "../collections/collections";
import type { Identity } from "../identity";

export interface Publication {
  id: string;
  title: string;
  authors: string[];
  venue: string | null;
  year: number;
  abstract: string | null;
  url: string | null;
  doi: string | null;
  kind: PublicationKind;
  status: "draft" | "published";
  /** Links to the creator's collections: shown to admins only (they are private to their owner). */
  collection_ids?: string[];
  created_at: string;
  updated_at: string;
}

/** GET /api/publications */
export interface PublicationPage {
  publications: Publication[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
  /** The kinds and years that have published records, for the page's filters. */
  facets: { kinds: { value: string; count: number }[]; years: { value: number; count: number }[] };
}

export const publicationNotFound = () => new ApiError("PUBLICATION_NOT_FOUND");

export function publicationId(raw: string | undefined): string {
  if (!raw || !isUuid(raw)) throw publicationNotFound();
  return raw.toLowerCase();
}

interface Row {
  id: string;
  title: string;
  authors: string[];
  venue: string | null;
  year: number;
  abstract: string | null;
  url: string | null;
  doi: string | null;
  kind: string;
  status: string;
  collection_ids: string[];
  created_at: string;
  updated_at: string;
}

function toPublication(r: Row, admin: boolean): Publication {
  const { collection_ids, ...rest } = r;
  return {
    ...rest,
    venue: r.venue ?? null,
    abstract: r.abstract ?? null,
    url: r.url ?? null,
    doi: r.doi ?? null,
    kind: r.kind as PublicationKind,
    status: r.status === "published" ? "published" : "draft",
    ...(admin ? { collection_ids: collection_ids ?? [] } : {}),
  };
}

export async function listPublications(
  db: DbClient,
  who: Identity,
  q: { page: number; limit: number; kind?: PublicationKind; year?: number; status: "published" | "draft" | "all" },
): Promise<PublicationPage> {
  const admin = who.role === "admin";
  // Drafts are for admins; anyone else asking for them gets what RLS lets them see of "draft": nothing.
  const status = q.status === "all" ? null : q.status;
  const [list, facets] = await Promise.all([
    db.rpc("publications_list", {
      p_kind: q.kind ?? null,
      p_year: q.year ?? null,
      p_status: status as string,
      p_limit: q.limit,
      p_offset: (q.page - 1) * q.limit,
    }),
    db.rpc("publications_facets"),
  ]);
  if (list.error) throw fromDatabaseError(list.error);
  if (facets.error) throw fromDatabaseError(facets.error);
  const total = Number(list.data[0]?.total_count ?? 0);
  return {
    publications: list.data.map(({ total_count: _t, ...r }) => toPublication(r, admin)),
    total,
    page: q.page,
    per_page: q.limit,
    pages: total === 0 ? 0 : Math.ceil(total / q.limit),
    facets: {
      kinds: facets.data.filter((f) => f.facet === "kind").map((f) => ({ value: f.value, count: Number(f.count) })),
      years: facets.data.filter((f) => f.facet === "year").map((f) => ({ value: Number(f.value), count: Number(f.count) })),
    },
  };
}

export async function getPublication(db: DbClient, who: Identity, id: string): Promise<Publication> {
  const { data, error } = await db.rpc("publications_get", { p_id: id });
  if (error) throw fromDatabaseError(error);
  const r = data[0];
  if (!r) throw publicationNotFound();
  return toPublication(r, who.role === "admin");
}

/** Linked collections must be the caller's own (RLS on collections makes anyone else's invisible): else 404. */
async function checkCollections(db: DbClient, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids.map((i) => i.toLowerCase()))];
  if (unique.length && (await countVisibleCollections(db, unique)) !== unique.length) throw new ApiError("COLLECTION_NOT_FOUND");
  return unique;
}

type Fields = Omit<Row, "id" | "created_at" | "updated_at">;

async function save(db: DbClient, id: string | null, f: Fields): Promise<Publication> {
  const { data, error } = await db.rpc("publications_save", {
    p_id: id as string, // null inserts
    p_title: f.title,
    p_authors: f.authors,
    p_venue: f.venue as string,
    p_year: f.year,
    p_abstract: f.abstract as string,
    p_url: f.url as string,
    p_doi: f.doi as string,
    p_kind: f.kind,
    p_status: f.status,
    p_collection_ids: f.collection_ids,
  });
  if (error) throw fromDatabaseError(error);
  const r = data[0];
  if (!r) throw publicationNotFound();
  return toPublication(r, true);
}

const auditView = (p: Publication): Json => ({ title: p.title, kind: p.kind, year: p.year, status: p.status, doi: p.doi });

export async function createPublication(db: DbClient, who: Identity, b: CreatePublication): Promise<Publication> {
  const pub = await save(db, null, {
    title: b.title,
    authors: b.authors,
    venue: b.venue ?? null,
    year: b.year,
    abstract: b.abstract ?? null,
    url: b.url ?? null,
    doi: b.doi ?? null,
    kind: b.kind,
    status: b.status,
    collection_ids: await checkCollections(db, b.collection_ids),
  });
  await recordAdminAction(db, who, { action: "publication.create", targetType: "publication", targetId: pub.id, after: auditView(pub) });
  return pub;
}

export async function patchPublication(db: DbClient, who: Identity, id: string, p: PatchPublication): Promise<Publication> {
  const before = await getPublication(db, who, id);
  const pick = <K extends keyof PatchPublication>(k: K, fallback: NonNullable<PatchPublication[K]> | null) =>
    p[k] !== undefined ? p[k] : fallback;
  const pub = await save(db, id, {
    title: p.title ?? before.title,
    authors: p.authors ?? before.authors,
    venue: pick("venue", before.venue) ?? null,
    year: p.year ?? before.year,
    abstract: pick("abstract", before.abstract) ?? null,
    url: pick("url", before.url) ?? null,
    doi: pick("doi", before.doi) ?? null,
    kind: p.kind ?? before.kind,
    status: p.status ?? before.status,
    collection_ids: p.collection_ids ? await checkCollections(db, p.collection_ids) : (before.collection_ids ?? []),
  });
  const action = p.status && p.status !== before.status ? (p.status === "published" ? "publication.publish" : "publication.unpublish") : "publication.update";
  await recordAdminAction(db, who, { action, targetType: "publication", targetId: id, before: auditView(before), after: auditView(pub) });
  return pub;
}

export async function deletePublication(db: DbClient, who: Identity, id: string): Promise<void> {
  const before = await getPublication(db, who, id);
  const { data, error } = await db.rpc("publications_delete", { p_id: id });
  if (error) throw fromDatabaseError(error);
  if (data !== true) throw publicationNotFound();
  await recordAdminAction(db, who, { action: "publication.delete", targetType: "publication", targetId: id, before: auditView(before) });
}

/** A BibTeX entry of a publication (the page's copy button): braces in values are dropped, not escaped. */
export function bibtex(p: Pick<Publication, "id" | "title" | "authors" | "venue" | "year" | "url" | "doi" | "kind">): string {
  const type = p.kind === "paper" ? "article" : p.kind === "report" ? "techreport" : "misc";
  const clean = (s: string) => s.replace(/[{}]/g, "");
  const surname = (p.authors[0] ?? "anon").split(/\s+/).pop() ?? "anon";
  const key = `${clean(surname).toLowerCase().replace(/[^a-z0-9]/g, "") || "anon"}${p.year}${p.id.slice(0, 4)}`;
  const fields: [string, string | null][] = [
    ["title", p.title],
    ["author", p.authors.join(" and ")],
    [p.kind === "paper" ? "journal" : p.kind === "report" ? "institution" : "howpublished", p.venue],
    ["year", String(p.year)],
    ["doi", p.doi],
    ["url", p.url],
  ];
  const body = fields.filter(([, v]) => v).map(([k, v]) => `  ${k} = {${clean(v as string)}}`);
  return `@${type}{${key},\n${body.join(",\n")}\n}`;
}
