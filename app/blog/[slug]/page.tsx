import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Markdown } from "@/components/content/markdown";
import { pageBlogPost, pageCountView } from "@/lib/api/content-pages";
import { getI18n } from "@/lib/i18n/server";
import { fmt, formatDate } from "@/lib/i18n/locale";

type Props = { params: Promise<{ slug: string }> };

/** The slug as written; a malformed escape cannot name a post (a 404, not a 500). */
function slugOf(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  const post = await pageBlogPost(slugOf(slug));
  return post ? { title: post.title, description: post.excerpt.slice(0, 160) } : {};
}

export default async function BlogPostPage({ params }: Props) {
  const [{ slug }, { locale, t }] = await Promise.all([params, getI18n()]);
  const B = t.content.blog;
  const post = await pageBlogPost(slugOf(slug));
  if (!post) notFound();
  await pageCountView(post.id);
  return (
    <article className="mx-auto max-w-3xl">
      <p className="mb-4 text-sm">
        <Link href="/blog" className="text-brand hover:underline">
          ← {B.back}
        </Link>
      </p>
      <header className="mb-6">
        <h1 className="text-3xl font-semibold tracking-tight">{post.title}</h1>
        <p className="mt-2 text-sm text-muted">
          <time dateTime={post.published_at}>{fmt(B.publishedOn, { date: formatDate(locale, post.published_at) })}</time>
          {" · "}
          {fmt(B.by, { author: post.author_name })}
          {" · "}
          <span data-testid="reading-time">{fmt(B.readingTime, { minutes: post.reading_minutes })}</span>
          {post.category ? (
            <>
              {" · "}
              <Link href={`/blog?category=${encodeURIComponent(post.category)}`} className="hover:underline">
                {post.category}
              </Link>
            </>
          ) : null}
        </p>
      </header>
      <Markdown source={post.body} />
      {post.tags.length ? (
        <ul className="mt-8 flex flex-wrap gap-3" aria-label={B.tagged}>
          {post.tags.map((tag) => (
            <li key={tag}>
              <Link href={`/blog?tag=${encodeURIComponent(tag)}`} className="text-sm text-brand hover:underline">
                #{tag}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <nav aria-label={B.title} className="mt-10 grid gap-4 border-t border-line pt-6 sm:grid-cols-2">
        {post.prev ? (
          <Link href={`/blog/${encodeURIComponent(post.prev.slug)}`} rel="prev" className="rounded-card border border-line p-3 hover:bg-sunken">
            <span className="block text-xs text-muted">← {B.prev}</span>
            {post.prev.title}
          </Link>
        ) : (
          <span />
        )}
        {post.next ? (
          <Link href={`/blog/${encodeURIComponent(post.next.slug)}`} rel="next" className="rounded-card border border-line p-3 text-right hover:bg-sunken">
            <span className="block text-xs text-muted">{B.next} →</span>
            {post.next.title}
          </Link>
        ) : null}
      </nav>
    </article>
  );
}
