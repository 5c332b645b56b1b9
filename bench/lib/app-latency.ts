/**
 * The 40 bench queries (keyword, hybrid 0.5, autocomplete) through a running app, signed in as a throwaway user
 * (deleted at the end). Used by bench/search (--app-url) and by bench/search-through-app (no index build). The app
 * must be started with the search limits raised: `SEARCH_DOCUMENTS_RATE_LIMIT=1000000
 * GENERAL_RATE_LIMIT_PER_MINUTE=1000000 npm start`.
 */
import { autocompletePath, httpClient, searchPath, stats, timed, type Stats } from "./http-timing";
import { SEARCH_BENCH_QUERIES } from "./search-queries";
import { createThrowawayUser, deleteUser } from "./throwaway-user";

export interface AppLatency {
  url: string;
  signed_in: true;
  keyword: Stats;
  hybrid: Stats;
  autocomplete: Stats;
}

/** Sign a throwaway user in through the running app; returns the Cookie header and the user (to delete). */
async function appSession(appUrl: string): Promise<{ cookie: string; userId: string }> {
  const user = await createThrowawayUser("bench-search");
  const r = await fetch(`${appUrl}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (r.status !== 200) {
    await deleteUser(user.id);
    throw new Error(`sign-in answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
  }
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { cookie, userId: user.id };
}

export async function measureThroughApp(appUrl: string, rounds: number): Promise<AppLatency> {
  const url = appUrl.replace(/\/+$/, "");
  const session = await appSession(url);
  const app = httpClient(url, session.cookie);
  try {
    const k: number[] = [];
    const h: number[] = [];
    const a: number[] = [];
    for (const bq of SEARCH_BENCH_QUERIES) {
      k.push(...(await timed(() => app.json(searchPath(bq)), rounds)));
      h.push(...(await timed(() => app.json(searchPath(bq, "&semantic_ratio=0.5")), rounds)));
      a.push(...(await timed(() => app.json(autocompletePath(bq)), rounds)));
    }
    return { url, signed_in: true, keyword: stats(k), hybrid: stats(h), autocomplete: stats(a) };
  } finally {
    app.close();
    await deleteUser(session.userId);
  }
}
