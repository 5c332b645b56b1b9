/**
 * The blog over the blog RPCs (supabase/migrations/20261125110000_blog_posts.sql). Public reads use
 * the caller's client and the functions filter to published, due posts; admin reads and writes use the caller's
 * client too, so RLS (public.is_admin()) is the last gate behind withRoute's `auth: "admin"`.
 */
import { createHash } from "node:crypto";
import { config } from "@/lib/config";
import type { DbClient } from "@/lib/supabase/db-client";
import type { Json } from "@/lib/supabase/database.types";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { isUuid } from "@/lib/schema/uuid";
import type { BlogStatus, CreateBlogPost, PatchBlogPost } from "@/lib/schema/requests/content";
import { escapeHtml } from "@/lib/text/html";
import { recordAdminAction } from "../admin-audit";
import type { Identity } from "../identity";
import { slugify } from "./slug";

export interface BlogPostSummary {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  category: string | null;
  tags: string[];
  published_at: string;
  author_name: string;
}

/** GET /api/blog/posts */
export interface BlogPostPage {
  posts: BlogPostSummary[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
}

export interface BlogNeighbour {
  slug: string;
  title: string;
}

/** GET /api/blog/posts/{slug} */
export interface BlogPostDetail extends BlogPostSummary {
  body: string;
  updated_at: string;
  reading_minutes: number;
  prev: BlogNeighbour | null;
  next: BlogNeighbour | null;
}

/** An admin's view of a post: every column. */
export interface BlogPostAdmin {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  body: string;
  category: string | null;
  tags: string[];
  status: BlogStatus;
  published_at: string | null;
  author_id: string | null;
  author_name: string;
  view_count: number;
  created_at: string;
  updated_at: string;
}

export type BlogPostAdminRow = Omit<BlogPostAdmin, "body" | "author_id">;

/** GET /api/blog/admin/posts */
export interface BlogAdminPage {
  posts: BlogPostAdminRow[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
}

/** GET /api/blog/categories */
export interface BlogCategories {
  categories: { name: string; count: number }[];
}

/** GET /api/blog/admin/stats */
export interface BlogStats {
  by_status: Record<BlogStatus, number>;
  posts_per_month: { month: string; count: number }[];
  top_viewed: { id: string; slug: string; title: string; status: BlogStatus; view_count: number }[];
}

export const postNotFound = () => new ApiError("POST_NOT_FOUND");

const pageCount = (total: number, perPage: number) => (total === 0 ? 0 : Math.ceil(total / perPage));

/** Reading time at 200 words a minute, at least one minute. */
export function readingMinutes(markdown: string): number {
  const words = markdown.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return Math.max(1, Math.round(words / 200));
}

export interface BlogListQuery {
  page: number;
  limit: number;
  category?: string;
  tag?: string;
  q?: string;
  sort: "published_at" | "title";
  order: "desc" | "asc";
}

export async function listPublicPosts(db: DbClient, q: BlogListQuery): Promise<BlogPostPage> {
  const { data, error } = await db.rpc("blog_list_posts", {
    p_category: q.category ?? null,
    p_tag: q.tag ?? null,
    p_q: q.q ?? null,
    p_sort: q.sort,
    p_order: q.order,
    p_limit: q.limit,
    p_offset: (q.page - 1) * q.limit,
  });
  if (error) throw fromDatabaseError(error);
  let total = Number(data[0]?.total_count ?? 0);
  // Past the last page the window is empty and carries no count: ask for it once so `total` stays true.
  if (data.length === 0 && q.page > 1) total = await countPublic(db, q);
  const posts = data.map(({ total_count: _t, ...p }) => ({ ...p, category: p.category ?? null, tags: p.tags ?? [] }));
  return { posts, total, page: q.page, per_page: q.limit, pages: pageCount(total, q.limit) };
}

async function countPublic(db: DbClient, q: BlogListQuery): Promise<number> {
  const { data, error } = await db.rpc("blog_list_posts", {
    p_category: q.category ?? null,
    p_tag: q.tag ?? null,
    p_q: q.q ?? null,
    p_limit: 1,
    p_offset: 0,
  });
  if (error) throw fromDatabaseError(error);
  return Number(data[0]?.total_count ?? 0);
}

/** A published, due post by slug; drafts, archived, scheduled and unknown slugs are the same 404. */
export async function getPublicPost(db: DbClient, slug: string): Promise<BlogPostDetail> {
  if (slug.length > 200) throw postNotFound();
  const { data, error } = await db.rpc("blog_get_post", { p_slug: slug });
  if (error) throw fromDatabaseError(error);
  const r = data[0];
  if (!r) throw postNotFound();
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    excerpt: r.excerpt,
    body: r.body,
    category: r.category ?? null,
    tags: r.tags ?? [],
    published_at: r.published_at,
    author_name: r.author_name,
    updated_at: r.updated_at,
    reading_minutes: readingMinutes(r.body),
    prev: r.prev_slug ? { slug: r.prev_slug, title: r.prev_title } : null,
    next: r.next_slug ? { slug: r.next_slug, title: r.next_title } : null,
  };
}

/**
 * The device key of a view: a SHA-256 of the UTC day and the client address (the limiters' key, D-22: an IPv6 client
 * as its /64). The User-Agent is not part of it: any client can send a new one per request, and 20 of them from one
 * address were 20 views. Reloads count once a day, a new day gives a new key, and the table never holds an address
 * (rows are pruned after two days).
 */
export function viewDevice(address: string, now = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  return createHash("sha256").update(`blog-view|${day}|${address}`).digest("hex");
}

/** Count a view of a post once per device per day (service role: visitors cannot write blog_posts). */
export async function recordView(serviceDb: DbClient, postId: string, device: string): Promise<boolean> {
  const { data, error } = await serviceDb.rpc("blog_record_view", { p_post_id: postId, p_device: device });
  if (error) throw fromDatabaseError(error);
  return data === true;
}

export async function blogCategories(db: DbClient): Promise<BlogCategories> {
  const { data, error } = await db.rpc("blog_categories");
  if (error) throw fromDatabaseError(error);
  return { categories: data.map((c) => ({ name: c.name, count: Number(c.count) })) };
}

// ---- admin -------------------------------------------------------------------------------------------------------

/** A path id: anything but a UUID cannot name a post, so it is the same 404 as an unknown one. */
export function postId(raw: string | undefined): string {
  if (!raw || !isUuid(raw)) throw postNotFound();
  return raw.toLowerCase();
}

export async function adminListPosts(
  db: DbClient,
  q: { page: number; limit: number; status?: BlogStatus; q?: string },
): Promise<BlogAdminPage> {
  const { data, error } = await db.rpc("blog_admin_list", {
    p_status: q.status ?? null,
    p_q: q.q ?? null,
    p_limit: q.limit,
    p_offset: (q.page - 1) * q.limit,
  });
  if (error) throw fromDatabaseError(error);
  const total = Number(data[0]?.total_count ?? 0);
  const posts = data.map(({ total_count: _t, ...p }) => ({
    ...p,
    category: p.category ?? null,
    published_at: p.published_at ?? null,
    status: p.status as BlogStatus,
    view_count: Number(p.view_count),
  }));
  return { posts, total, page: q.page, per_page: q.limit, pages: pageCount(total, q.limit) };
}

type AdminRow = {
  [K in keyof BlogPostAdmin]: K extends "status" ? string : K extends "view_count" ? number | string : BlogPostAdmin[K];
};
const toAdmin = (r: AdminRow): BlogPostAdmin => ({ ...r, status: r.status as BlogStatus, view_count: Number(r.view_count) });

export async function adminGetPost(db: DbClient, id: string): Promise<BlogPostAdmin> {
  const { data, error } = await db.rpc("blog_admin_get", { p_id: id });
  if (error) throw fromDatabaseError(error);
  const r = data[0];
  if (!r) throw postNotFound();
  return toAdmin(r);
}

interface SaveFields {
  slugBase: string;
  title: string;
  excerpt: string;
  body: string;
  category: string | null;
  tags: string[];
  status: BlogStatus;
  published_at: string | null;
  author_name: string | null;
}

async function save(db: DbClient, id: string | null, f: SaveFields): Promise<BlogPostAdmin> {
  const { data, error } = await db.rpc("blog_admin_save", {
    p_id: id as string, // null inserts (the generated Args type does not say the SQL accepts null here)
    p_slug_base: f.slugBase,
    p_title: f.title,
    p_excerpt: f.excerpt,
    p_body: f.body,
    p_category: f.category as string,
    p_tags: f.tags,
    p_status: f.status,
    p_published_at: f.published_at as string,
    p_author_name: f.author_name as string,
  });
  if (error) throw fromDatabaseError(error);
  const r = data[0];
  if (!r) throw postNotFound();
  return toAdmin(r);
}

/**
 * When a post is published it needs a date: the one given, else the one it has while it stays published, else now. A date in the
 * future schedules it (the public functions show it once the date has come).
 */
function publishedAt(status: BlogStatus, given: string | null | undefined, stored: { status: BlogStatus; at: string | null } | null): string | null {
  if (given !== undefined) return given === null && status === "published" ? new Date().toISOString() : given;
  if (status !== "published") return stored?.at ?? null;
  // Publishing (from draft or archived) stamps now; editing a post that is already published keeps its date.
  return stored?.status === "published" && stored.at ? stored.at : new Date().toISOString();
}

const dedupe = (tags: string[]) => [...new Set(tags)];

const auditView = (p: BlogPostAdmin): Json => ({
  slug: p.slug,
  title: p.title,
  status: p.status,
  published_at: p.published_at,
  category: p.category,
  tags: p.tags,
  excerpt_length: p.excerpt.length,
  body_length: p.body.length,
});

export async function adminCreatePost(db: DbClient, who: Identity, body: CreateBlogPost): Promise<BlogPostAdmin> {
  const post = await save(db, null, {
    slugBase: body.slug ?? slugify(body.title),
    title: body.title,
    excerpt: body.excerpt,
    body: body.body,
    category: body.category ?? null,
    tags: dedupe(body.tags),
    status: body.status,
    published_at: publishedAt(body.status, body.published_at, null),
    author_name: body.author_name ?? null,
  });
  await recordAdminAction(db, who, { action: "blog.create", targetType: "blog_post", targetId: post.id, after: auditView(post) });
  return post;
}

export async function adminPatchPost(db: DbClient, who: Identity, id: string, patch: PatchBlogPost): Promise<BlogPostAdmin> {
  const before = await adminGetPost(db, id);
  const status = patch.status ?? before.status;
  const post = await save(db, id, {
    // The slug stays put when the title changes (links keep working); it changes only when given.
    slugBase: patch.slug ?? before.slug,
    title: patch.title ?? before.title,
    excerpt: patch.excerpt ?? before.excerpt,
    body: patch.body ?? before.body,
    category: patch.category !== undefined ? patch.category : before.category,
    tags: patch.tags ? dedupe(patch.tags) : before.tags,
    status,
    published_at: publishedAt(status, patch.published_at, { status: before.status, at: before.published_at }),
    author_name: patch.author_name ?? null,
  });
  const action = patch.status && patch.status !== before.status ? `blog.${statusVerb(before.status, patch.status)}` : "blog.update";
  await recordAdminAction(db, who, { action, targetType: "blog_post", targetId: id, before: auditView(before), after: auditView(post) });
  return post;
}

function statusVerb(from: BlogStatus, to: BlogStatus): string {
  if (to === "published") return "publish";
  if (to === "archived") return "archive";
  return from === "published" ? "unpublish" : "restore";
}

export async function adminDeletePost(db: DbClient, who: Identity, id: string): Promise<void> {
  const before = await adminGetPost(db, id);
  const { data, error } = await db.rpc("blog_admin_delete", { p_id: id });
  if (error) throw fromDatabaseError(error);
  if (data !== true) throw postNotFound();
  await recordAdminAction(db, who, { action: "blog.delete", targetType: "blog_post", targetId: id, before: auditView(before) });
}

export async function blogAdminStats(db: DbClient): Promise<BlogStats> {
  const { data, error } = await db.rpc("blog_admin_stats");
  if (error) throw fromDatabaseError(error);
  return data as unknown as BlogStats; // built by one SQL function whose jsonb keys are this type's (tested over HTTP)
}

// ---- RSS ---------------------------------------------------------------------------------------------------------

/** How many posts the feed carries (newest first). */
export const RSS_ITEMS = 20;

/**
 * The RSS 2.0 feed of published posts. Every text node goes through the one HTML escaper (&, <, >, " — the XML
 * specials that matter in element content); links are absolute, built on APP_URL or the request's own origin.
 */
export async function rssFeed(db: DbClient, origin: string, meta: { title: string; description: string; language: string }): Promise<string> {
  const page = await listPublicPosts(db, { page: 1, limit: RSS_ITEMS, sort: "published_at", order: "desc" });
  const base = (config().APP_URL ?? origin).replace(/\/+$/, "");
  const x = escapeHtml;
  const items = page.posts.map((p) => {
    const link = `${base}/blog/${encodeURIComponent(p.slug)}`;
    return [
      "    <item>",
      `      <title>${x(p.title)}</title>`,
      `      <link>${x(link)}</link>`,
      `      <guid isPermaLink="true">${x(link)}</guid>`,
      `      <pubDate>${new Date(p.published_at).toUTCString()}</pubDate>`,
      `      <description>${x(p.excerpt)}</description>`,
      `      <dc:creator>${x(p.author_name)}</dc:creator>`,
      ...(p.category ? [`      <category>${x(p.category)}</category>`] : []),
      ...p.tags.map((t) => `      <category>${x(t)}</category>`),
      "    </item>",
    ].join("\n");
  });
  const newest = page.posts[0]?.published_at;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "  <channel>",
    `    <title>${x(meta.title)}</title>`,
    `    <link>${x(`${base}/blog`)}</link>`,
    `    <description>${x(meta.description)}</description>`,
    `    <language>${x(meta.language)}</language>`,
    `    <atom:link href="${x(`${base}/blog/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [`    <lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>`] : []),
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}
