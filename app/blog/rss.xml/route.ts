import { withRoute } from "@/lib/api/route";
import { rssFeed } from "@/lib/backend/content/blog";
import { messagesFor } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

/** GET /blog/rss.xml: RSS 2.0 of the newest published posts (escaped; absolute links). */
export const GET = withRoute({ auth: "public" }, async ({ db, req }) => {
  const t = messagesFor("en").content;
  const xml = await rssFeed(db, req.nextUrl.origin, { title: t.rssTitle, description: t.rssDescription, language: "en" });
  return new Response(xml, { headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
});
