/**
 * Server-side reads of the content pages (/blog, /blog/[slug], /publications), through the same backend functions as
 * their API routes with the visitor's own session (see lib/api/pages.ts for why pages do not call their own API).
 */
import { cache } from "react";
import { headers } from "next/headers";
import {
  blogCategories,
  getPublicPost,
  listPublicPosts,
  recordView,
  viewDevice,
  type BlogCategories,
  type BlogListQuery,
  type BlogPostDetail,
  type BlogPostPage,
} from "@/lib/backend/content/blog";
import { listPublications, type PublicationPage } from "@/lib/backend/content/publications";
import type { PublicationKind } from "@/lib/schema/requests/content";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { createServiceClient } from "@/lib/supabase/server";
import { pageIdentity } from "./pages";
import { clientAddress } from "./rate-limit";

export const pageBlogList = async (q: BlogListQuery): Promise<BlogPostPage> => listPublicPosts((await pageIdentity()).db, q);

export const pageBlogCategories = async (): Promise<BlogCategories> => blogCategories((await pageIdentity()).db);

/** One post for its page and <title> (cached per render); null when it is not public. */
export const pageBlogPost = cache(async (slug: string): Promise<BlogPostDetail | null> => {
  try {
    return await getPublicPost((await pageIdentity()).db, slug);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
});

/** Count the page view once per device per day; a failure to count never breaks the page. */
export async function pageCountView(postId: string): Promise<void> {
  try {
    const h = await headers();
    await recordView(createServiceClient(), postId, viewDevice(clientAddress({ headers: h }).address));
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e) }, "blog view not counted");
  }
}

export const pagePublications = async (q: { page: number; limit: number; kind?: PublicationKind; year?: number }): Promise<PublicationPage> => {
  const who = await pageIdentity();
  return listPublications(who.db, who, { ...q, status: "published" });
};
