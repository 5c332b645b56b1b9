/**
 * Slugs of blog posts: the title folded to ASCII with the project's one diacritic folder (lib/text/fold.ts), so
 * "Łódź: wyroki sądów" → "lodz-wyroki-sadow". Uniqueness (a "-2", "-3" suffix) is decided in the database, in the
 * same transaction as the write (blog_admin_save).
 */
import { foldDiacritics } from "@/lib/text/fold";
import { BLOG_LIMITS } from "@/lib/schema/requests/content";

export function slugify(title: string): string {
  const slug = foldDiacritics(title)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, BLOG_LIMITS.slug - 10) // room for a uniqueness suffix
    .replace(/-+$/g, "");
  // A title of punctuation or a script the folder cannot map to ASCII still needs a slug.
  return slug || "post";
}
