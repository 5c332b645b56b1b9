import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";
import { TEST_CONTACT_NOTIFY_EMAIL } from "../helpers/test-app";
import { startInOneWindow, windowTestTimeout } from "../helpers/rate-window";

/**
 * The content area over real HTTP (6): blog (public and admin), RSS, publications, contact form
 * and its triage, content stats. One admin, one user and anonymous visitors share the file; every post and record
 * carries this run's tag as its category or title, so the assertions never depend on other suites' rows.
 */
const pool = adminPool();
const tag = `c${Date.now().toString(36)}`;
let admin: Browser;
let user: Browser;
const anon = new Browser();

beforeAll(async () => {
  [{ browser: admin }, { browser: user }] = await Promise.all([signedInBrowser({ admin: true }), signedInBrowser()]);
});
afterAll(async () => {
  await pool.query("delete from public.blog_posts where category = $1", [tag]);
  await pool.query("delete from public.publications where title like $1", [`${tag}%`]);
  await pool.query("delete from public.contact_messages where subject like $1", [`${tag}%`]);
  await pool.end();
});

const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;
const code = async (res: Response) => [res.status, ((await res.json()) as { detail: { code: string } }).detail.code];

interface Post {
  id: string;
  slug: string;
  title: string;
  status: string;
  published_at: string | null;
  view_count: number;
}

async function createPost(body: Record<string, unknown>): Promise<Post> {
  const res = await admin.post("/api/blog/admin/posts", { category: tag, ...body });
  expect([res.status, res.status === 201 ? "" : await res.text()]).toEqual([201, ""]);
  return json<Post>(res);
}

describe("admin routes: anonymous 401, user 403 FORBIDDEN, admin served", () => {
  it("every content admin route", async () => {
    const id = randomUUID();
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/blog/admin/posts"],
      ["POST", "/api/blog/admin/posts", { title: "x" }],
      ["GET", `/api/blog/admin/posts/${id}`],
      ["PATCH", `/api/blog/admin/posts/${id}`, { title: "x" }],
      ["DELETE", `/api/blog/admin/posts/${id}`],
      ["GET", "/api/blog/admin/stats"],
      ["POST", "/api/publications", { title: "x", authors: ["a"], year: 2024, kind: "paper" }],
      ["PATCH", `/api/publications/${id}`, { title: "x" }],
      ["DELETE", `/api/publications/${id}`],
      ["GET", "/api/admin/contact-messages"],
      ["PATCH", `/api/admin/contact-messages/${id}`, { status: "read" }],
      ["GET", "/api/admin/content/stats"],
    ];
    for (const [method, path, body] of routes) {
      const a = await anon.request(method, path, body);
      expect([method, path, a.status]).toEqual([method, path, 401]);
      const u = await user.request(method, path, body);
      expect([method, path, ...(await code(u))]).toEqual([method, path, 403, "FORBIDDEN"]);
      // Admin: served (a random id is simply not found; the created post is removed below with the tag).
      const r = await admin.request(method, path, method === "POST" && path.startsWith("/api/blog") ? { title: "x", category: tag } : body);
      expect([method, path, [200, 201, 404].includes(r.status)]).toEqual([method, path, true]);
      if (method === "POST" && path === "/api/publications") await admin.delete(`/api/publications/${(await json<{ id: string }>(r)).id}`);
    }
  }, 180_000); // the first request to each route compiles it under `next dev`
});

describe("blog: writing, slugs, scheduling and the public 404", () => {
  it("derives a folded slug from the title, makes it unique, keeps an explicit one", async () => {
    const a = await createPost({ title: `Łódź: wyroki sądów ${tag}` });
    expect(a.slug).toBe(`lodz-wyroki-sadow-${tag}`);
    expect(a.status).toBe("draft");
    const b = await createPost({ title: `Łódź: wyroki sądów ${tag}` });
    expect(b.slug).toBe(`lodz-wyroki-sadow-${tag}-2`);
    const c = await createPost({ title: "Anything", slug: `${tag}-chosen` });
    expect(c.slug).toBe(`${tag}-chosen`);
    const taken = await admin.patch(`/api/blog/admin/posts/${c.id}`, { slug: a.slug });
    expect((await json<Post>(taken)).slug).toBe(`${a.slug}-3`); // a's slug and b's "-2" are taken
  });

  it("validates title 1-200, excerpt ≤ 500, body ≤ 100,000, slug format, status (422); 413 past the body cap", async () => {
    const bad = [
      { title: "" },
      { title: "x".repeat(201) },
      { title: "ok", excerpt: "x".repeat(501) },
      { title: "ok", body: "x".repeat(100_001) },
      { title: "ok", slug: "Not A Slug" },
      { title: "ok", status: "secret" },
      { title: "ok", published_at: "yesterday" },
      { title: "ok", unknown: 1 },
    ];
    for (const b of bad) expect([Object.keys(b).join(), ...(await code(await admin.post("/api/blog/admin/posts", b)))]).toEqual([Object.keys(b).join(), 422, "VALIDATION_ERROR"]);
    const long = await createPost({ title: `${tag} long`, body: "ż".repeat(100_000) });
    expect(long.id).toBeTruthy();
    expect((await admin.post("/api/blog/admin/posts", { title: "x", body: "x".repeat(600 * 1024) })).status).toBe(413);
  });

  it("drafts, archived, scheduled and unknown slugs are the same 404 POST_NOT_FOUND; publishing stamps now", async () => {
    const draft = await createPost({ title: `${tag} draft`, body: "draft" });
    const future = await createPost({ title: `${tag} future`, status: "published", published_at: new Date(Date.now() + 86_400_000).toISOString() });
    const archived = await createPost({ title: `${tag} archived`, status: "archived" });
    for (const slug of [draft.slug, future.slug, archived.slug, `${tag}-no-such-post`]) {
      expect([slug, ...(await code(await anon.get(`/api/blog/posts/${slug}`)))]).toEqual([slug, 404, "POST_NOT_FOUND"]);
    }
    const before = Date.now();
    const published = await json<Post>(await admin.patch(`/api/blog/admin/posts/${draft.id}`, { status: "published" }));
    expect(published.status).toBe("published");
    expect(Date.parse(published.published_at as string)).toBeGreaterThanOrEqual(before - 5_000);
    const post = await json<Record<string, unknown>>(await anon.get(`/api/blog/posts/${draft.slug}`));
    expect(post).toMatchObject({ id: draft.id, slug: draft.slug, body: "draft", category: tag, reading_minutes: 1 });
    // Bringing the scheduled date forward publishes it.
    await admin.patch(`/api/blog/admin/posts/${future.id}`, { published_at: new Date(Date.now() - 1000).toISOString() });
    expect((await anon.get(`/api/blog/posts/${future.slug}`)).status).toBe(200);
    // Unpublishing hides it again.
    await admin.patch(`/api/blog/admin/posts/${future.id}`, { status: "draft" });
    expect((await anon.get(`/api/blog/posts/${future.slug}`)).status).toBe(404);
  });

  it("admin GET/PATCH/DELETE of an unknown or malformed id → 404 POST_NOT_FOUND; delete → 204 and audited", async () => {
    for (const id of [randomUUID(), "not-a-uuid"]) {
      expect(await code(await admin.get(`/api/blog/admin/posts/${id}`))).toEqual([404, "POST_NOT_FOUND"]);
      expect(await code(await admin.patch(`/api/blog/admin/posts/${id}`, { title: "x" }))).toEqual([404, "POST_NOT_FOUND"]);
      expect(await code(await admin.delete(`/api/blog/admin/posts/${id}`))).toEqual([404, "POST_NOT_FOUND"]);
    }
    const p = await createPost({ title: `${tag} doomed` });
    expect((await admin.delete(`/api/blog/admin/posts/${p.id}`)).status).toBe(204);
    expect((await admin.get(`/api/blog/admin/posts/${p.id}`)).status).toBe(404);
    const { rows } = await pool.query<{ action: string }>("select action from public.admin_audit_log where target_id = $1 order by id", [p.id]);
    expect(rows.map((r) => r.action)).toEqual(["blog.create", "blog.delete"]);
  });
});

describe("blog: the public list", () => {
  let posts: Post[] = [];
  beforeAll(async () => {
    const past = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    const titles: [string, string, string[]][] = [
      [`${tag} Alpha 100% sure`, "plain body", ["alpha"]],
      [`${tag} Beta a_b`, "plain body", ["beta"]],
      [`${tag} Gamma back\\slash`, "plain body", ["alpha", "gamma"]],
      [`${tag} Delta`, "the body mentions zebra", []],
    ];
    posts = [];
    for (const [i, [title, body, tags]] of titles.entries()) {
      posts.push(await createPost({ title, body, tags, excerpt: `excerpt ${i}`, status: "published", published_at: past(10 + i) }));
    }
  });

  const list = async (qs: string) =>
    json<{ posts: { title: string }[]; total: number; page: number; per_page: number; pages: number }>(await anon.get(`/api/blog/posts?category=${tag}&${qs}`));

  it("answers the documented shape, newest first", async () => {
    const res = await anon.get(`/api/blog/posts?category=${tag}&q=${encodeURIComponent(tag)}`);
    const body = await json<{ posts: Record<string, unknown>[] }>(res);
    expect(Object.keys(body).sort()).toEqual(["page", "pages", "per_page", "posts", "total"]);
    expect(Object.keys(body.posts[0]).sort()).toEqual(["author_name", "category", "excerpt", "id", "published_at", "slug", "tags", "title"]);
    const titles = body.posts.map((p) => p.title as string).filter((t) => /Alpha|Beta|Gamma|Delta/.test(t));
    expect(titles).toEqual([`${tag} Alpha 100% sure`, `${tag} Beta a_b`, `${tag} Gamma back\\slash`, `${tag} Delta`]);
  });

  it("escapes %, _ and \\ in q (a literal substring, case-insensitive, of title, excerpt or body)", async () => {
    expect((await list("q=%25")).posts.map((p) => p.title)).toEqual([`${tag} Alpha 100% sure`]);
    expect((await list("q=_")).posts.map((p) => p.title)).toEqual([`${tag} Beta a_b`]);
    expect((await list(`q=${encodeURIComponent("\\")}`)).posts.map((p) => p.title)).toEqual([`${tag} Gamma back\\slash`]);
    expect((await list("q=ZEBRA")).posts.map((p) => p.title)).toEqual([`${tag} Delta`]);
    expect((await list("q=EXCERPT%202")).posts.map((p) => p.title)).toEqual([`${tag} Gamma back\\slash`]);
  });

  it("filters by tag, sorts by title, clamps limit to 1..50 and page to ≥ 1", async () => {
    expect((await list("tag=alpha")).posts.map((p) => p.title)).toEqual([`${tag} Alpha 100% sure`, `${tag} Gamma back\\slash`]);
    const byTitle = await list("sort=title&order=asc&q=plain");
    expect(byTitle.posts.map((p) => p.title)).toEqual([`${tag} Alpha 100% sure`, `${tag} Beta a_b`, `${tag} Gamma back\\slash`]);
    const one = await list("limit=0&page=-3&q=plain");
    expect([one.per_page, one.page, one.posts.length, one.total, one.pages]).toEqual([1, 1, 1, 3, 3]);
    const second = await list("limit=1&page=2&q=plain");
    expect(second.posts.map((p) => p.title)).toEqual([`${tag} Beta a_b`]);
    expect((await list("limit=500")).per_page).toBe(50);
    const past = await list("limit=2&page=99&q=plain");
    expect([past.posts.length, past.total, past.pages]).toEqual([0, 3, 2]);
    for (const qs of ["limit=ten", "sort=views", "order=sideways", "page=1.5", "bogus=1"]) {
      expect([qs, ...(await code(await anon.get(`/api/blog/posts?${qs}`)))]).toEqual([qs, 422, "VALIDATION_ERROR"]);
    }
  });

  it("categories count published posts", async () => {
    const { categories } = await json<{ categories: { name: string; count: number }[] }>(await anon.get("/api/blog/categories"));
    expect(categories.find((c) => c.name === tag)?.count).toBeGreaterThanOrEqual(4);
  });

  it("a view counts once per device per day", async () => {
    const p = posts[3];
    const views = async () => (await json<Post>(await admin.get(`/api/blog/admin/posts/${p.id}`))).view_count;
    const start = await views();
    const reader = new Browser();
    await reader.get(`/api/blog/posts/${p.slug}`);
    await reader.get(`/api/blog/posts/${p.slug}`);
    expect(await views()).toBe(start + 1);
    await new Browser().get(`/api/blog/posts/${p.slug}`);
    expect(await views()).toBe(start + 2);
  });

  it("the RSS feed is RSS 2.0 with escaped text and absolute links", async () => {
    const escaped = await createPost({ title: `${tag} Fish & <Chips>`, excerpt: `"quoted" & <b>bold</b>`, status: "published" });
    const res = await anon.get("/blog/rss.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/rss\+xml/);
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')).toBe(true);
    expect(xml).toContain(`<title>${tag} Fish &amp; &lt;Chips&gt;</title>`);
    expect(xml).toContain(`<description>&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;</description>`);
    expect(xml).not.toContain("<Chips>");
    expect(xml).toMatch(new RegExp(`<link>http://[^<]+/blog/${escaped.slug}</link>`));
    expect(xml.trim().endsWith("</rss>")).toBe(true);
  });

  it("admin stats: counts by status, posts per month, top viewed", async () => {
    const stats = await json<{ by_status: Record<string, number>; posts_per_month: { month: string; count: number }[]; top_viewed: unknown[] }>(
      await admin.get("/api/blog/admin/stats"),
    );
    expect(Object.keys(stats.by_status).sort()).toEqual(["archived", "draft", "published"]);
    expect(stats.by_status.published).toBeGreaterThanOrEqual(4);
    expect(stats.posts_per_month.at(-1)?.month).toMatch(/^\d{4}-\d{2}$/);
    expect(stats.top_viewed.length).toBeGreaterThan(0);
    const list = await json<{ posts: { status: string }[]; total: number }>(await admin.get("/api/blog/admin/posts?status=draft&limit=100"));
    expect(list.posts.every((p) => p.status === "draft")).toBe(true);
  });
});

describe("publications", () => {
  it("admin creates, anyone reads published only, patch and delete; 404 PUBLICATION_NOT_FOUND; 422s", async () => {
    const create = (b: Record<string, unknown>) => admin.post("/api/publications", { authors: ["Anna Nowak", "John Smith"], year: 2024, kind: "paper", ...b });
    const res = await create({ title: `${tag} paper`, doi: "10.1234/abc.5", status: "published", venue: "Journal" });
    expect(res.status).toBe(201);
    const pub = await json<{ id: string; collection_ids: string[] }>(res);
    expect(pub.collection_ids).toEqual([]);
    const draft = await json<{ id: string }>(await create({ title: `${tag} draft dataset`, kind: "dataset" }));

    const listed = await json<{ publications: { id: string; title: string; collection_ids?: unknown }[]; per_page: number }>(
      await anon.get("/api/publications?limit=50&year=2024&kind=paper"),
    );
    expect(listed.publications.map((p) => p.id)).toContain(pub.id);
    expect(listed.publications[0].collection_ids).toBeUndefined(); // private links are for admins
    expect((await json<{ publications: { id: string }[] }>(await anon.get("/api/publications?status=all&limit=50"))).publications.map((p) => p.id)).not.toContain(draft.id);
    expect(await code(await anon.get(`/api/publications/${draft.id}`))).toEqual([404, "PUBLICATION_NOT_FOUND"]);
    expect(await code(await anon.get("/api/publications/not-a-uuid"))).toEqual([404, "PUBLICATION_NOT_FOUND"]);
    expect((await admin.get(`/api/publications/${draft.id}`)).status).toBe(200);
    expect((await json<{ per_page: number }>(await anon.get("/api/publications?limit=999"))).per_page).toBe(50);

    const patched = await json<{ status: string; venue: string | null }>(await admin.patch(`/api/publications/${draft.id}`, { status: "published", venue: null }));
    expect(patched).toMatchObject({ status: "published", venue: null });
    expect((await anon.get(`/api/publications/${draft.id}`)).status).toBe(200);

    for (const b of [{ title: "x", doi: "not-a-doi" }, { title: "x", year: 1800 }, { title: "x", kind: "poem" }, { title: "x", authors: [] }, { title: "x", url: "javascript:alert(1)" }]) {
      expect([JSON.stringify(b), ...(await code(await create(b)))]).toEqual([JSON.stringify(b), 422, "VALIDATION_ERROR"]);
    }
    // Links only to the creator's own collections.
    const other = await user.post("/api/collections", { name: "not the admin's" });
    const otherId = (await json<{ id: string }>(other)).id;
    expect(await code(await create({ title: `${tag} linked`, collection_ids: [otherId] }))).toEqual([404, "COLLECTION_NOT_FOUND"]);
    const own = await json<{ id: string }>(await admin.post("/api/collections", { name: "admin's own" }));
    const linked = await json<{ collection_ids: string[] }>(await create({ title: `${tag} linked`, collection_ids: [own.id] }));
    expect(linked.collection_ids).toEqual([own.id]);

    expect((await admin.delete(`/api/publications/${pub.id}`)).status).toBe(204);
    expect(await code(await admin.delete(`/api/publications/${pub.id}`))).toEqual([404, "PUBLICATION_NOT_FOUND"]);
    const { rows } = await pool.query<{ action: string }>("select action from public.admin_audit_log where target_id = $1 order by id", [draft.id]);
    expect(rows.map((r) => r.action)).toEqual(["publication.create", "publication.publish"]);
  });
});

describe("contact form", () => {
  const message = (subject: string, extra: Record<string, unknown> = {}) => ({
    name: "Jan Kowalski",
    email: "jan@example.org",
    subject: `${tag} ${subject}`,
    message: "A question about the corpus coverage.",
    ...extra,
  });
  const stored = async (subject: string) =>
    (await pool.query("select count(*)::int as n from public.contact_messages where subject = $1", [`${tag} ${subject}`])).rows[0].n as number;

  it("stores a message (202); a filled honeypot answers the same and stores nothing", async () => {
    const real = await new Browser().post("/api/contact", message("real", { website: "" }));
    const bot = await new Browser().post("/api/contact", message("bot", { website: "http://spam.example" }));
    expect([real.status, bot.status]).toEqual([202, 202]);
    expect(await real.json()).toEqual(await bot.json());
    expect([await stored("real"), await stored("bot")]).toEqual([1, 0]);
  });

  it("notifies CONTACT_NOTIFY_EMAIL through the SMTP server; the honeypot's catch sends nothing", async () => {
    const mails = async (subject: string) =>
      (
        await pool.query<{ rcpt_to: string[]; subject: string; text_body: string }>(
          "select rcpt_to, subject, text_body from public.mail_messages where subject = $1 and $2 = any(rcpt_to)",
          [`[contact] ${tag} ${subject}`, TEST_CONTACT_NOTIFY_EMAIL],
        )
      ).rows;
    const sent = message("notify", { name: "Anna Nowak", email: "anna.nowak@example.org", message: "Do you cover the 2019 appeals?" });
    expect((await new Browser().post("/api/contact", sent)).status).toBe(202);
    expect((await new Browser().post("/api/contact", message("notify bot", { website: "http://spam.example" }))).status).toBe(202);
    // The route awaits the SMTP exchange, and the local server stores a message before it accepts it.
    const [mail, ...more] = await mails("notify");
    expect(more).toEqual([]);
    expect(mail.rcpt_to).toEqual([TEST_CONTACT_NOTIFY_EMAIL]);
    const { rows } = await pool.query<{ id: string }>("select id from public.contact_messages where subject = $1", [`${tag} notify`]);
    expect(rows).toHaveLength(1);
    for (const part of ["From: Anna Nowak <anna.nowak@example.org>", `Message id: ${rows[0].id}`, "Do you cover the 2019 appeals?"]) {
      expect(mail.text_body).toContain(part);
    }
    expect(await mails("notify bot")).toEqual([]);
  });

  it("validates name 2-120, email, subject ≤ 200, message 10-5000, no unknown fields (422)", async () => {
    const v = new Browser();
    const bad = [
      { name: "J" },
      { name: "x".repeat(121) },
      { email: "not-an-email" },
      { email: `${"x".repeat(250)}@example.org` },
      { subject: "x".repeat(201) },
      { message: "too short" },
      { message: "x".repeat(5001) },
      { extra: true },
    ];
    for (const b of bad) expect([JSON.stringify(b).slice(0, 30), ...(await code(await v.post("/api/contact", message("bad", b))))]).toEqual([JSON.stringify(b).slice(0, 30), 422, "VALIDATION_ERROR"]);
    expect(await stored("bad")).toBe(0);
  });

  it("5 per hour per client address, then the reference 429", async () => {
    await startInOneWindow(3600, 60);
    const v = new Browser();
    for (let i = 0; i < 5; i++) expect((await v.post("/api/contact", message(`quota ${i}`))).status).toBe(202);
    const res = await v.post("/api/contact", message("quota 5"));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ error: "RateLimitExceeded", status_code: 429 });
    expect(await stored("quota 5")).toBe(0);
    expect((await new Browser().post("/api/contact", message("other address"))).status).toBe(202);
  }, windowTestTimeout(60));

  it("admins list and triage messages; 404 CONTACT_MESSAGE_NOT_FOUND; 422 on a bad status", async () => {
    const page = await json<{ messages: { id: string; subject: string; status: string }[]; total: number }>(await admin.get("/api/admin/contact-messages?status=new&limit=100"));
    const mine = page.messages.find((m) => m.subject === `${tag} real`);
    expect(mine?.status).toBe("new");
    const res = await admin.patch(`/api/admin/contact-messages/${mine?.id}`, { status: "read" });
    expect(await json(res)).toMatchObject({ id: mine?.id, status: "read" });
    expect(await code(await admin.patch(`/api/admin/contact-messages/${mine?.id}`, { status: "spam" }))).toEqual([422, "VALIDATION_ERROR"]);
    expect(await code(await admin.patch(`/api/admin/contact-messages/${randomUUID()}`, { status: "read" }))).toEqual([404, "CONTACT_MESSAGE_NOT_FOUND"]);
    const stats = await json<Record<string, Record<string, number>>>(await admin.get("/api/admin/content/stats"));
    expect(Object.keys(stats).sort()).toEqual(["blog", "contact_messages", "publications"]);
    expect(Object.keys(stats.blog).sort()).toEqual(["archived", "draft", "published", "scheduled"]);
    expect(stats.contact_messages.read).toBeGreaterThanOrEqual(1);
  });
});
