import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";

/**
 * Blog view counts cannot be inflated by rotating the User-Agent: the device key of a view is the day and the client
 * address (an IPv6 client by its /64) alone. Before, 20 User-Agents from one address counted 20 views.
 */
const pool = adminPool();
const tag = `ua${Date.now().toString(36)}`;
let admin: Browser;
let post: { id: string; slug: string };

beforeAll(async () => {
  ({ browser: admin } = await signedInBrowser({ admin: true }));
  const res = await admin.post("/api/blog/admin/posts", { title: `${tag} views`, slug: `${tag}-views`, excerpt: "", body: "text", category: tag, status: "published" });
  expect([res.status, res.status === 201 ? "" : await res.text()]).toEqual([201, ""]);
  post = (await res.json()) as { id: string; slug: string };
});

afterAll(async () => {
  await pool.query("delete from public.blog_posts where category = $1", [tag]);
  await pool.end();
});

const views = async () => ((await (await admin.get(`/api/blog/admin/posts/${post.id}`)).json()) as { view_count: number }).view_count;

describe("blog view counting keyed on the address, not the User-Agent", () => {
  it("20 User-Agents from one address add one view (API and page alike); another address adds one more", async () => {
    const start = await views();
    const reader = new Browser();
    for (let i = 0; i < 20; i++) {
      const agent = `Mozilla/5.0 (X11; Linux x86_64) Bot/${i}.0`;
      expect((await reader.get(`/api/blog/posts/${post.slug}`, { "user-agent": agent })).status).toBe(200);
    }
    for (let i = 0; i < 3; i++) expect((await reader.get(`/blog/${post.slug}`, { "user-agent": `Page/${i}` })).status).toBe(200);
    expect(await views()).toBe(start + 1);
    await new Browser().get(`/api/blog/posts/${post.slug}`, { "user-agent": "Bot/0.0" });
    expect(await views()).toBe(start + 2);
  }, 120_000);
});
