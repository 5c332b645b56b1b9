/**
 * Query schemas of the content routes: the request schemas of lib/schema/requests/content.ts with the page sizes of
 * lib/config.ts (read when a request is parsed, so a test or deployment setting applies).
 */
import { z } from "zod";
import { config } from "@/lib/config";
import { BLOG_STATUSES, BlogListFilters, clampedPageQuery, ContactListFilters, PublicationListFilters } from "@/lib/schema/requests/content";

const blogPage = () => clampedPageQuery(() => config().BLOG_PAGE_SIZE_MAX, () => config().BLOG_PAGE_SIZE_DEFAULT);
const adminPage = () => clampedPageQuery(() => config().CONTENT_ADMIN_PAGE_SIZE_MAX, () => config().CONTENT_ADMIN_PAGE_SIZE_DEFAULT);

export const BlogListQuery = z.strictObject({ ...blogPage(), ...BlogListFilters });
export const BlogAdminListQuery = z.strictObject({
  ...adminPage(),
  status: z.enum(BLOG_STATUSES).optional(),
  q: BlogListFilters.q,
});
export const PublicationListQuery = z.strictObject({
  ...clampedPageQuery(() => config().PUBLICATIONS_PAGE_SIZE_MAX, () => config().PUBLICATIONS_PAGE_SIZE_DEFAULT),
  ...PublicationListFilters,
});
export const ContactListQuery = z.strictObject({ ...adminPage(), ...ContactListFilters });
