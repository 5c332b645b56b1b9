/**
 * Request schemas of the content area (blog, publications, contact form). The field limits are the issue's
 * validation rules, shared by the API and the browser forms (react-hook-form + zodResolver use these same schemas), so
 * this file must stay importable by client components: no config, no server imports. List sizes that are settings
 * (page size caps) live in lib/config.ts and are applied by the backend (clamped, not refused).
 */
import { z } from "zod";
import { httpUrlSchema, safeText } from "@/lib/schema/text";

export const BLOG_STATUSES = ["draft", "published", "archived"] as const;
export type BlogStatus = (typeof BLOG_STATUSES)[number];
export const PUBLICATION_KINDS = ["paper", "dataset", "report", "software"] as const;
export type PublicationKind = (typeof PUBLICATION_KINDS)[number];
export const PUBLICATION_STATUSES = ["draft", "published"] as const;
export const CONTACT_STATUSES = ["new", "read", "archived"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const BLOG_LIMITS = { title: 200, excerpt: 500, body: 100_000, category: 60, tag: 40, tags: 20, slug: 140, authorName: 120 } as const;
export const CONTACT_LIMITS = { nameMin: 2, nameMax: 120, email: 254, subject: 200, messageMin: 10, messageMax: 5000 } as const;

/** A URL slug: lower-case ASCII words joined by single hyphens. */
export const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** An integer query parameter that is clamped into [min, max] (the issue says "clamped"), defaulting when absent. */
const clampedInt = (min: number, max: () => number, fallback: () => number) =>
  z
    .string()
    .regex(/^-?\d{1,9}$/, "must be an integer")
    .optional()
    .transform((v) => (v === undefined ? fallback() : Math.min(max(), Math.max(min, Number(v)))));

/** page (≥ 1) and limit (1..max): out-of-range values are clamped; non-integers are a 422. */
export const clampedPageQuery = (maxLimit: () => number, defaultLimit: () => number) => ({
  page: clampedInt(1, () => 100_000, () => 1),
  limit: clampedInt(1, maxLimit, defaultLimit),
});

const optionalText = (max: number) =>
  safeText()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v));

/** The blog list's filters (GET /api/blog/posts); page/limit are added by the route with the config caps. */
export const BlogListFilters = {
  category: optionalText(BLOG_LIMITS.category),
  tag: optionalText(BLOG_LIMITS.tag),
  q: optionalText(200),
  sort: z.enum(["published_at", "title"]).default("published_at"),
  order: z.enum(["desc", "asc"]).default("desc"),
};

const tagsSchema = z.array(safeText().trim().min(1).max(BLOG_LIMITS.tag)).max(BLOG_LIMITS.tags);
const isoDateTime = z.iso.datetime({ offset: true });

/** Fields an admin may set on a post (POST /api/blog/admin/posts, PATCH …/{id}). */
const blogPostFields = {
  title: safeText().trim().min(1).max(BLOG_LIMITS.title),
  slug: safeText().trim().min(1).max(BLOG_LIMITS.slug).regex(SLUG_RE, "lower-case letters, digits and single hyphens"),
  excerpt: safeText().max(BLOG_LIMITS.excerpt),
  body: safeText().max(BLOG_LIMITS.body),
  category: safeText().trim().min(1).max(BLOG_LIMITS.category).nullable(),
  tags: tagsSchema,
  status: z.enum(BLOG_STATUSES),
  published_at: isoDateTime.nullable(),
  author_name: safeText().trim().min(1).max(BLOG_LIMITS.authorName),
};

export const CreateBlogPostSchema = z.strictObject({
  title: blogPostFields.title,
  slug: blogPostFields.slug.optional(),
  excerpt: blogPostFields.excerpt.default(""),
  body: blogPostFields.body.default(""),
  category: blogPostFields.category.optional(),
  tags: blogPostFields.tags.default([]),
  status: blogPostFields.status.default("draft"),
  published_at: blogPostFields.published_at.optional(),
  author_name: blogPostFields.author_name.optional(),
});
export type CreateBlogPost = z.infer<typeof CreateBlogPostSchema>;

export const PatchBlogPostSchema = z
  .strictObject({
    title: blogPostFields.title.optional(),
    slug: blogPostFields.slug.optional(),
    excerpt: blogPostFields.excerpt.optional(),
    body: blogPostFields.body.optional(),
    category: blogPostFields.category.optional(),
    tags: blogPostFields.tags.optional(),
    status: blogPostFields.status.optional(),
    published_at: blogPostFields.published_at.optional(),
    author_name: blogPostFields.author_name.optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: "Give at least one field to change." });
export type PatchBlogPost = z.infer<typeof PatchBlogPostSchema>;

const currentYearPlus = () => new Date().getUTCFullYear() + 5;

const publicationFields = {
  title: safeText().trim().min(1).max(300),
  authors: z.array(safeText().trim().min(1).max(200)).min(1).max(50),
  venue: safeText().trim().max(300).nullable(),
  year: z.int().min(1900).refine((y) => y <= currentYearPlus(), "is too far in the future"),
  abstract: safeText().max(5000).nullable(),
  url: httpUrlSchema.max(2000).nullable(),
  doi: safeText()
    .trim()
    .max(200)
    .regex(/^10\.\d{4,9}\/\S+$/, "a DOI such as 10.1234/abc")
    .nullable(),
  kind: z.enum(PUBLICATION_KINDS),
  status: z.enum(PUBLICATION_STATUSES),
  collection_ids: z.array(z.guid("must be a UUID")).max(20),
};

export const CreatePublicationSchema = z.strictObject({
  title: publicationFields.title,
  authors: publicationFields.authors,
  venue: publicationFields.venue.optional(),
  year: publicationFields.year,
  abstract: publicationFields.abstract.optional(),
  url: publicationFields.url.optional(),
  doi: publicationFields.doi.optional(),
  kind: publicationFields.kind,
  status: publicationFields.status.default("draft"),
  collection_ids: publicationFields.collection_ids.default([]),
});
export type CreatePublication = z.infer<typeof CreatePublicationSchema>;

export const PatchPublicationSchema = z
  .strictObject({
    title: publicationFields.title.optional(),
    authors: publicationFields.authors.optional(),
    venue: publicationFields.venue.optional(),
    year: publicationFields.year.optional(),
    abstract: publicationFields.abstract.optional(),
    url: publicationFields.url.optional(),
    doi: publicationFields.doi.optional(),
    kind: publicationFields.kind.optional(),
    status: publicationFields.status.optional(),
    collection_ids: publicationFields.collection_ids.optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: "Give at least one field to change." });
export type PatchPublication = z.infer<typeof PatchPublicationSchema>;

export const PublicationListFilters = {
  kind: z.enum(PUBLICATION_KINDS).optional(),
  year: z
    .string()
    .regex(/^\d{4}$/, "must be a year")
    .transform(Number)
    .optional(),
  /** Only admins see drafts; "all" asks for every record the caller may see. */
  status: z.enum(["published", "draft", "all"]).default("published"),
};

/**
 * POST /api/contact. `website` is the honeypot: people never see the field (it is hidden), bots fill it; any value
 * is accepted here so a bot gets the very same 202 as a person, and the backend stores nothing.
 */
export const ContactSchema = z.strictObject({
  name: safeText().trim().min(CONTACT_LIMITS.nameMin).max(CONTACT_LIMITS.nameMax),
  email: z.email().max(CONTACT_LIMITS.email),
  subject: safeText()
    .trim()
    .max(CONTACT_LIMITS.subject)
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  message: safeText().trim().min(CONTACT_LIMITS.messageMin).max(CONTACT_LIMITS.messageMax),
  website: safeText().max(500).optional(),
});
export type ContactInput = z.input<typeof ContactSchema>;

export const ContactStatusSchema = z.strictObject({ status: z.enum(CONTACT_STATUSES) });
export const ContactListFilters = { status: z.enum(CONTACT_STATUSES).optional() };
