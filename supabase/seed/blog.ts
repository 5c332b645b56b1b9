/**
 * The three posts a fresh installation starts with ("so the blog is not empty"): about the corpus, how to
 * build a cohort, and release notes. Written at first start by server/launcher/prepare-data.ts, only while blog_posts is empty,
 * and each insert skips a slug that exists: running it again never duplicates or resurrects anything an admin kept.
 */
import pg from "pg";

export interface SeedPost {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  tags: string[];
  /** Days before the seeding moment, so the newest post is the release notes. */
  daysAgo: number;
  body: string;
}

export const SEED_POSTS: readonly SeedPost[] = [
  {
    slug: "what-is-in-the-corpus",
    title: "What is in the corpus: 12,307 criminal appeal judgments from Poland and the UK",
    excerpt:
      "Where the judgments come from, which courts and years they cover, what we extract from each one, and the gaps you should know about before drawing conclusions.",
    category: "Corpus",
    tags: ["corpus", "data", "methodology"],
    daysAgo: 62,
    body: `The service holds **12,307 judgments** of criminal appeal courts: Polish appellate and regional courts hearing
appeals, the Supreme Court's criminal chamber, and the Court of Appeal (Criminal Division) of England and Wales.
Decision dates run from 2003 to 2024.

## Where the texts come from

Polish judgments are published by the courts themselves in the common courts' portal and the Supreme Court's
database; UK judgments come from the National Archives' Find Case Law service and its predecessors. We keep the
published text as it is, with the court's own anonymisation.

## What we extract

Every judgment goes through three passes:

1. **Base fields**: court, date, case number, judges, the offence and the outcome of the appeal.
2. **Structure**: the parts of the reasoning (facts, grounds of appeal, the court's assessment, the decision).
3. **Deep fields**: 51 fields in total, such as the sentences received, what the appeal was against, the grounds
   of appeal and its outcome.

| Group | Example fields |
|---|---|
| Case | \`case_number\`, \`appeal_court_judges_names\` |
| Offender and victim | \`offender_age_offence\`, \`victim_type\` |
| Appeal | \`appeal_against\`, \`appeal_ground\`, \`appeal_outcome\` |

## Caveats

- Publication is selective: courts do not publish every judgment, and the selection differs between the two
  jurisdictions. Counts describe *the corpus*, not the courts' caseload.
- Extracted fields are produced by models and checked by sampling; the completeness figures on the
  [dashboard](/dashboard) say how often each field could be filled.
- Comparing Poland and the UK needs care: appeal routes, sentencing frameworks and reporting practice differ.

Questions or corrections are welcome through the [contact form](/contact).`,
  },
  {
    slug: "how-to-build-a-cohort",
    title: "How to build a cohort of judgments you can defend",
    excerpt:
      "A step-by-step walk through the structured filters: start broad, narrow on extracted fields, check the distribution, and save the result as a collection you can cite.",
    category: "Guides",
    tags: ["cohort", "filters", "collections", "how-to"],
    daysAgo: 30,
    body: `A cohort is a set of judgments chosen by explicit rules, so that someone else can rebuild it. This guide shows
how to make one with the structured search.

## 1. Start with a question, then a broad query

Write the question down first: *"How often do appellate courts reduce custodial sentences for robbery?"* Then run a
broad keyword search (for example \`rozbój\` or \`robbery\`) to see what the texts call the thing you are after.

## 2. Narrow on extracted fields, not on words

Open **Extractions** and add filters on fields rather than words:

- \`jurisdiction\`: PL, UK or both;
- \`decision_date\`: a range of years;
- \`appeal_against\`: conviction, sentence or both;
- \`appeal_outcome\`: allowed, dismissed, varied.

Every filter is shown with the number of judgments it keeps, so you can see which rule removes the most.

## 3. Look at the distribution before reading

The aggregate panel shows how the cohort spreads over courts and years. A cohort where one court supplies half the
judgments answers a question about that court, not about appeals in general.

## 4. Save it as a collection

When the cohort looks right, **save it as a collection**. The collection keeps the filter it came from, so the
method section of a paper can quote it exactly, and colleagues can open the same set.

> Tip: record the date you built the cohort. The corpus grows, and the same filter may return more judgments later.

## 5. Read a sample

Counts are a start. Read a random sample of ten judgments from the collection and check that each one really
belongs: extraction errors and unusual cases show up quickly this way.`,
  },
  {
    slug: "release-notes-november-2026",
    title: "Release notes: blog, publications, contact form and an administration panel",
    excerpt:
      "This release adds the blog you are reading, a list of the group's publications with BibTeX export, a contact form, and an administration panel for the people who run the service.",
    category: "Releases",
    tags: ["release-notes", "changelog"],
    daysAgo: 1,
    body: `## New

- **Blog**: notes on the corpus, methods and releases, with categories, tags, search and an
  [RSS feed](/blog/rss.xml).
- **Publications**: papers, datasets, reports and software produced with the corpus, filterable by kind and year;
  each entry has a *Copy BibTeX* button.
- **Contact form**: questions and corrections reach the team directly.
- **Administration**: administrators manage posts, publications and messages; every change is recorded in an audit
  log.
- **Dashboard**: corpus statistics (decisions per year, top courts, completeness of the extracted fields).

Every new page is available in Polish and English. Suggestions for the next release are welcome through the
[contact form](/contact).`,
  },
];

/**
 * Insert the seed posts when the blog has no posts at all, inside the caller's open transaction; returns how many were
 * written. The table lock makes two launchers on one database seed once: the second waits, then sees the posts.
 */
export async function seedBlogPostsWith(client: pg.ClientBase): Promise<number> {
  await client.query("lock table public.blog_posts in share row exclusive mode");
  const { rows } = await client.query<{ empty: boolean }>("select not exists (select 1 from public.blog_posts) as empty");
  if (!rows[0].empty) return 0;
  let written = 0;
  for (const p of SEED_POSTS) {
    const res = await client.query(
      `insert into public.blog_posts (slug, title, excerpt, body, category, tags, status, published_at, author_id)
       values ($1, $2, $3, $4, $5, $6, 'published', now() - make_interval(days => $7), null)
       on conflict (slug) do nothing`,
      [p.slug, p.title, p.excerpt, p.body, p.category, p.tags, p.daysAgo],
    );
    written += res.rowCount ?? 0;
  }
  return written;
}

/** First start: seed the blog in one transaction of its own. */
export async function seedBlogPosts(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("begin");
    const written = await seedBlogPostsWith(client);
    await client.query("commit");
    return written;
  } catch (e) {
    await client.query("rollback").catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
}
