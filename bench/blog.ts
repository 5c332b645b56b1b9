/**
 * bench/blog: latency of GET /api/blog/posts through a running app (target p50 ≤ 10 ms), anonymous, over
 * one keep-alive connection, for the list shapes the /blog page asks for: the first page, a category, a tag, a text
 * search (`q`, a sequential ILIKE over title, excerpt and body), a deeper page, and one post by slug. Prints JSON.
 *
 *   npx tsx bench/blog.ts [--url http://127.0.0.1:3000] [--rounds 300] [--posts 500] [--database-url postgres://…]
 *
 * The app must be started with the per-IP limit raised (`GENERAL_RATE_LIMIT_PER_MINUTE=1000000 npm start`). With
 * --posts N and a database URL (or DATABASE_URL), N synthetic published posts (category "bench", ~1,500 words each)
 * are inserted first and deleted at the end, so the figures describe a blog far larger than the three seeded posts.
 * Viewing a post by slug records a view (once per device per day): after the first call it is a no-op insert.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { httpClient, stats, timed } from "./lib/http-timing";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:3000" },
    rounds: { type: "string", default: "300" },
    posts: { type: "string", default: "500" },
    "database-url": { type: "string", default: process.env.DATABASE_URL ?? "" },
  },
});
const APP_URL = values.url.replace(/\/+$/, "");
const ROUNDS = Math.max(10, Number(values.rounds) || 300);
const POSTS = Math.max(0, Number(values.posts) || 0);
const DATABASE_URL = values["database-url"];

const WORDS = "court appeal sentence judgment offence conviction evidence ground reasoning custody".split(" ");

async function insertPosts(db: pg.Client, n: number): Promise<void> {
  await db.query(
    `insert into public.blog_posts (slug, title, excerpt, body, category, tags, status, published_at)
     select 'bench-post-' || i, 'Bench post ' || i, 'Excerpt of bench post ' || i,
            repeat($1, 150), 'bench', array['bench', 'tag' || (i % 10)], 'published', now() - make_interval(hours => i)
     from generate_series(1, $2::int) i
     on conflict (slug) do nothing`,
    [`${WORDS.join(" ")} `, n],
  );
}

async function main() {
  const db = POSTS > 0 && DATABASE_URL ? new pg.Client({ connectionString: DATABASE_URL }) : null;
  if (db) {
    await db.connect();
    await insertPosts(db, POSTS);
  }
  const app = httpClient(APP_URL);
  try {
    const first = (await app.json("/api/blog/posts?limit=1")) as { posts: { slug: string }[] };
    const slug = first.posts[0]?.slug;
    const paths: Record<string, string> = {
      first_page: "/api/blog/posts",
      category: "/api/blog/posts?category=bench&limit=10",
      tag: "/api/blog/posts?tag=tag3&limit=10",
      search_q: "/api/blog/posts?q=reasoning%20custody&limit=10",
      search_q_miss: "/api/blog/posts?q=no-such-phrase-anywhere&limit=10",
      page_10: "/api/blog/posts?page=10&limit=20",
      sort_title: "/api/blog/posts?sort=title&order=asc",
      ...(slug ? { post_by_slug: `/api/blog/posts/${encodeURIComponent(slug)}` } : {}),
    };
    const figures: Record<string, ReturnType<typeof stats>> = {};
    for (const [name, path] of Object.entries(paths)) figures[name] = stats(await timed(() => app.json(path), ROUNDS));
    const mem = process.memoryUsage();
    const total = ((await app.json("/api/blog/posts?limit=1")) as { total: number }).total;
    console.log(
      JSON.stringify(
        {
          bench: "blog",
          url: APP_URL,
          rounds: ROUNDS,
          published_posts: total,
          target: { first_page_p50_ms_max: 10 },
          meets_target: figures.first_page.p50_ms <= 10,
          endpoints: figures,
          throughput_rps_first_page: Number((1000 / figures.first_page.p50_ms).toFixed(1)),
          bench_process_rss_mb: Math.round(mem.rss / 1048576),
        },
        null,
        2,
      ),
    );
  } finally {
    app.close();
    if (db) {
      await db.query("delete from public.blog_posts where slug like 'bench-post-%'");
      await db.end();
    }
  }
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
