import { randomUUID } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import { realtimeOptions, serverAuthOptions } from "../../lib/supabase/options";
import { stackEnv } from "./stack";

/**
 * A browser-like HTTP client for API tests: keeps cookies between requests (as a browser would) and sends JSON.
 * One instance = one visitor.
 */
export class Browser {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl = stackEnv().appUrl as string, private readonly defaultHeaders: Record<string, string> = {}) {
    if (!baseUrl) throw new Error("the test stack has no appUrl: run API tests through the api project");
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  clearCookies(): void {
    this.cookies.clear();
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const cookieHeader = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...this.defaultHeaders,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(cookieHeader ? { cookie: cookieHeader } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get = (path: string, headers?: Record<string, string>) => this.request("GET", path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request("POST", path, body ?? {}, headers);
  patch = (path: string, body?: unknown) => this.request("PATCH", path, body ?? {});
  delete = (path: string, body?: unknown) => this.request("DELETE", path, body);
}

/** A fresh, unique e-mail address for a test user. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.org`;
}

export const TEST_PASSWORD = "correct-horse-battery-staple";

/** Create a confirmed user through the admin API (service role), optionally an admin. */
export async function createUser(opts: { email?: string; password?: string; admin?: boolean } = {}) {
  const env = stackEnv();
  const admin = createClient(env.supabaseUrl as string, env.serviceRoleKey as string, { auth: serverAuthOptions, realtime: realtimeOptions });
  const email = opts.email ?? uniqueEmail(opts.admin ? "admin" : "user");
  const password = opts.password ?? TEST_PASSWORD;
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    app_metadata: opts.admin ? { role: "admin" } : {},
  });
  if (error || !data.user) throw new Error(`createUser failed: ${error?.message}`);
  return { id: data.user.id, email, password };
}

/** A Browser signed in as a new (or given) user through POST /api/auth/sign-in. */
export async function signedInBrowser(opts: { admin?: boolean } = {}) {
  const user = await createUser(opts);
  const browser = new Browser();
  const res = await browser.post("/api/auth/sign-in", { email: user.email, password: user.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return { browser, user };
}
