import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { createUser } from "../helpers/supabase";
import { SEED_POSTS, seedBlogPostsWith } from "../../supabase/seed/blog";

/**
 * RLS and grants of the content area (migrations 20261125110000_blog_posts, 20261125110100_publications_contact), as
 * anon, two users and an admin: blog_posts (public = published and due), blog_post_views (nobody), publications
 * (public = published), contact_messages (admins only; written by the service role), and the first-start seed.
 */
const pool = adminPool();
const tag = `t${Date.now().toString(36)}`;
let alice: string;
let bob: string;
let admin: string;
const ids: Record<string, string> = {};

const adminClaims = (id: string) => ({ ...userClaims(id), app_metadata: { role: "admin" } });
const anon = <T,>(fn: Parameters<typeof asRole<T>>[3]) => asRole(pool, "anon", { role: "anon" }, fn);
const as = <T,>(id: string, fn: Parameters<typeof asRole<T>>[3]) => asRole(pool, "authenticated", userClaims(id), fn);
const asAdmin = <T,>(fn: Parameters<typeof asRole<T>>[3]) => asRole(pool, "authenticated", adminClaims(admin), fn);

async function sqlstate(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    return (e as { code: string }).code;
  }
}

beforeAll(async () => {
  alice = (await createUser()).id;
  bob = (await createUser()).id;
  admin = (await createUser({ admin: true })).id;
  const post = async (name: string, status: string, publishedAt: string | null) => {
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.blog_posts (slug, title, body, category, status, published_at) values ($1, $2, 'body', $3, $4, $5) returning id`,
      [`${tag}-${name}`, `${tag} ${name}`, tag, status, publishedAt],
    );
    ids[name] = rows[0].id;
  };
  await post("live", "published", new Date(Date.now() - 3_600_000).toISOString());
  await post("future", "published", new Date(Date.now() + 86_400_000).toISOString());
  await post("draft", "draft", null);
  await post("archived", "archived", new Date(Date.now() - 7_200_000).toISOString());
  const pub = async (name: string, status: string) => {
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.publications (title, authors, year, kind, status) values ($1, array['A. Author'], 2024, 'paper', $2) returning id`,
      [`${tag} ${name}`, status],
    );
    ids[`pub-${name}`] = rows[0].id;
  };
  await pub("published", "published");
  await pub("draft", "draft");
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.contact_messages (name, email, message) values ('Jan', 'jan@example.org', 'A message long enough') returning id`,
  );
  ids.message = rows[0].id;
});
afterAll(async () => {
  await pool.query("delete from public.blog_posts where category = $1", [tag]);
  await pool.query("delete from public.publications where title like $1", [`${tag}%`]);
  await pool.end();
});

const mine = (rows: { slug?: string; title?: string }[]) => rows.filter((r) => (r.slug ?? r.title ?? "").startsWith(tag));

describe("blog_posts", () => {
  it("anon and both users read only published posts whose date has come", async () => {
    for (const run of [anon, <T,>(fn: Parameters<typeof asRole<T>>[3]) => as(alice, fn), <T,>(fn: Parameters<typeof asRole<T>>[3]) => as(bob, fn)]) {
      const rows = await run(async (c) => (await c.query<{ slug: string }>("select slug from public.blog_posts")).rows);
      expect(mine(rows).map((r) => r.slug)).toEqual([`${tag}-live`]);
    }
  });

  it("an admin reads every post, yet the public functions still show only the live one", async () => {
    const all = await asAdmin(async (c) => (await c.query<{ slug: string }>("select slug from public.blog_posts where category = $1 order by slug", [tag])).rows);
    expect(all.map((r) => r.slug)).toEqual(["archived", "draft", "future", "live"].map((n) => `${tag}-${n}`));
    const listed = await asAdmin(async (c) => (await c.query<{ slug: string }>("select slug from public.blog_list_posts(p_category => $1)", [tag])).rows);
    expect(listed.map((r) => r.slug)).toEqual([`${tag}-live`]);
    const one = await asAdmin(async (c) => (await c.query("select slug from public.blog_get_post($1)", [`${tag}-draft`])).rows);
    expect(one).toEqual([]);
  });

  it("users cannot insert, update or delete; an admin can", async () => {
    expect(await sqlstate(as(alice, (c) => c.query("insert into public.blog_posts (slug, title) values ($1, 'x')", [`${tag}-u`])))).toBe("42501");
    expect(await sqlstate(anon((c) => c.query("insert into public.blog_posts (slug, title) values ($1, 'x')", [`${tag}-a`])))).toBe("42501");
    const updated = await as(bob, async (c) => (await c.query("update public.blog_posts set title = 'hacked' where id = $1", [ids.live])).rowCount);
    expect(updated).toBe(0);
    const deleted = await as(bob, async (c) => (await c.query("delete from public.blog_posts where id = $1", [ids.live])).rowCount);
    expect(deleted).toBe(0);
    expect(await sqlstate(as(alice, (c) => c.query("select * from public.blog_admin_save(null, $1, 'x', '', '', null, '{}', 'draft', null, null)", [`${tag}-rpc`])))).toBe("42501");
    const saved = await asAdmin(async (c) =>
      (await c.query("select slug, status from public.blog_admin_save(null, $1, 'x', '', '', $2, '{}', 'draft', null, null)", [`${tag}-live`, tag])).rows[0],
    );
    expect(saved).toEqual({ slug: `${tag}-live-2`, status: "draft" }); // unique with a suffix
    expect(await asAdmin(async (c) => (await c.query("select public.blog_admin_delete(id) as ok from public.blog_posts where slug = $1", [`${tag}-live-2`])).rows[0].ok)).toBe(true);
  });

  it("a published post needs a date; bad slugs and statuses are refused by the table itself", async () => {
    expect(await sqlstate(asAdmin((c) => c.query("insert into public.blog_posts (slug, title, status) values ($1, 'x', 'published')", [`${tag}-nodate`])))).toBe("23514");
    expect(await sqlstate(asAdmin((c) => c.query("insert into public.blog_posts (slug, title) values ('Not A Slug', 'x')")))).toBe("23514");
    expect(await sqlstate(asAdmin((c) => c.query("insert into public.blog_posts (slug, title, status) values ($1, 'x', 'secret')", [`${tag}-st`])))).toBe("23514");
  });

  it("views: nobody reads or writes blog_post_views; only the service role records a view, once per device per day", async () => {
    expect(await sqlstate(anon((c) => c.query("select * from public.blog_post_views")))).toBe("42501");
    expect(await sqlstate(asAdmin((c) => c.query("select * from public.blog_post_views")))).toBe("42501");
    expect(await sqlstate(anon((c) => c.query("select public.blog_record_view($1, $2)", [ids.live, "d".repeat(64)])))).toBe("42501");
    expect(await sqlstate(as(alice, (c) => c.query("select public.blog_record_view($1, $2)", [ids.live, "d".repeat(64)])))).toBe("42501");
    const record = (post: string, device: string) =>
      asRole(pool, "service_role", { role: "service_role" }, async (c) => (await c.query("select public.blog_record_view($1, $2) as n", [post, device])).rows[0].n);
    const device = `${tag}`.padEnd(64, "0");
    expect(await record(ids.live, device)).toBe(true);
    expect(await record(ids.live, device)).toBe(false);
    expect(await record(ids.live, device.replace(/0$/, "1"))).toBe(true);
    expect(await record(ids.draft, device)).toBe(false); // not public: never counted
    expect(await record(ids.future, device)).toBe(false);
    const counts = (await pool.query("select slug, view_count from public.blog_posts where id = any($1) order by slug", [[ids.live, ids.draft]])).rows;
    expect(counts).toEqual([
      { slug: `${tag}-draft`, view_count: "0" },
      { slug: `${tag}-live`, view_count: "2" },
    ]);
  });
});

describe("publications", () => {
  it("anon and users read published records only; only admins write", async () => {
    for (const run of [anon, <T,>(fn: Parameters<typeof asRole<T>>[3]) => as(alice, fn)]) {
      const rows = await run(async (c) => (await c.query<{ title: string }>("select title from public.publications_list(p_limit => 500)")).rows);
      expect(mine(rows).map((r) => r.title)).toEqual([`${tag} published`]);
    }
    const all = await asAdmin(async (c) => (await c.query<{ title: string }>("select title from public.publications where title like $1 order by title", [`${tag}%`])).rows);
    expect(all.map((r) => r.title)).toEqual([`${tag} draft`, `${tag} published`]);
    expect(await sqlstate(as(bob, (c) => c.query("insert into public.publications (title, authors, year, kind) values ('x', array['a'], 2024, 'paper')")))).toBe("42501");
    expect(await as(bob, async (c) => (await c.query("delete from public.publications where id = $1", [ids["pub-published"]])).rowCount)).toBe(0);
    expect(await asAdmin(async (c) => (await c.query("update public.publications set venue = 'V' where id = $1", [ids["pub-draft"]])).rowCount)).toBe(1);
  });
});

describe("contact_messages", () => {
  it("anon has no access at all; users see nothing; the form's insert function is the service role's only", async () => {
    expect(await sqlstate(anon((c) => c.query("select * from public.contact_messages")))).toBe("42501");
    expect(await as(alice, async (c) => (await c.query("select * from public.contact_messages")).rowCount)).toBe(0);
    expect(await sqlstate(as(alice, (c) => c.query("insert into public.contact_messages (name, email, message) values ('ab', 'a@b.c', 'long enough text')")))).toBe("42501");
    expect(await sqlstate(anon((c) => c.query("select public.contact_submit('ab', 'a@b.c', null, 'long enough text')")))).toBe("42501");
    expect(await sqlstate(as(bob, (c) => c.query("select public.contact_submit('ab', 'a@b.c', null, 'long enough text')")))).toBe("42501");
    expect(await as(bob, async (c) => (await c.query("select * from public.contact_set_status($1, 'read')", [ids.message])).rowCount)).toBe(0);
  });

  it("an admin reads and triages; the status is checked", async () => {
    const row = await asAdmin(async (c) => (await c.query("select before_status, status from public.contact_set_status($1, 'read')", [ids.message])).rows[0]);
    expect(row).toEqual({ before_status: "new", status: "read" });
    expect(await sqlstate(asAdmin((c) => c.query("select * from public.contact_set_status($1, 'spam')", [ids.message])))).toBe("23514");
    const listed = await asAdmin(async (c) => (await c.query<{ id: string }>("select id from public.contact_list(p_limit => 1000)")).rows);
    expect(listed.map((r) => r.id)).toContain(ids.message);
  });
});

describe("first-start blog seed", () => {
  it("writes the three posts into an empty blog, then nothing on a second run", async () => {
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query("delete from public.blog_posts");
      expect(await seedBlogPostsWith(client)).toBe(3);
      expect(await seedBlogPostsWith(client)).toBe(0);
      const { rows } = await client.query<{ slug: string; status: string }>("select slug, status from public.blog_posts order by published_at");
      expect(rows).toEqual(SEED_POSTS.map((p) => ({ slug: p.slug, status: "published" })));
    } finally {
      await client.query("rollback");
      client.release();
    }
  });
});
