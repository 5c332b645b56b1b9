/**
 * What the browser benches (bench/web, bench/web-trace) share: a running app to measure, the Chromium `npm test`
 * uses, and a signed-in session's cookies.
 */
import { chromium, type Browser } from "playwright";
import { chromiumLaunchOptions } from "../../tests/helpers/chromium";
import { provisionChromium, systemProbe } from "../../tests/helpers/provision-chromium";

/** Fail early, with the way out, when nothing answers at `appUrl`. */
export async function requireApp(appUrl: string): Promise<void> {
  const health = await fetch(`${appUrl}/api/health/status`).catch((e: Error) => e);
  if (health instanceof Error || !health.ok) throw new Error(`no app answering at ${appUrl} (start it with npm start)`);
}

/** The same Chromium `npm test` uses: found, or installed (Debian's, as root), or an error saying how. */
export async function launchBenchBrowser(): Promise<Browser> {
  const provisioned = provisionChromium(systemProbe());
  if (!provisioned.ok) throw new Error(provisioned.message);
  return chromium.launch({ ...chromiumLaunchOptions, executablePath: provisioned.path });
}

/** Sign `user` in through the app's own route in a throwaway context; the session's cookies. */
export async function signedInCookies(browser: Browser, appUrl: string, user: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL: appUrl });
  try {
    const res = await context.request.post("/api/auth/sign-in", { data: { email: user.email, password: user.password } });
    if (res.status() !== 200) throw new Error(`sign-in answered ${res.status()}: ${(await res.text()).slice(0, 300)}`);
    const { cookies } = await context.storageState();
    if (cookies.length === 0) throw new Error("sign-in set no cookies");
    return cookies;
  } finally {
    await context.close();
  }
}

export type SessionCookies = Awaited<ReturnType<typeof signedInCookies>>;
