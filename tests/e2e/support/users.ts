import { expect, type Page } from "playwright/test";

export const PASSWORD = "correct-horse-battery-staple-7";

export function uniqueEmail(tag: string): string {
  return `e2e-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
}

/** Create an account through the API in this page's context, which leaves the session cookies in the browser. */
export async function signUpViaApi(page: Page, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  const res = await page.request.post("/api/auth/sign-up", { data: { email, password: PASSWORD } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return email;
}

/**
 * A confirmed admin (app_metadata.role = "admin") created through the Auth admin API with the test stack's service
 * key, as `npm run user:create -- --admin` does (the vitest helpers cannot be imported into Playwright).
 */
export async function createAdminUser(tag: string): Promise<{ email: string; password: string }> {
  const stack = JSON.parse(process.env.TEST_STACK_ENV ?? "{}") as { supabaseUrl?: string; serviceRoleKey?: string };
  if (!stack.supabaseUrl || !stack.serviceRoleKey) throw new Error("TEST_STACK_ENV has no supabaseUrl/serviceRoleKey");
  const email = uniqueEmail(tag);
  const res = await fetch(`${stack.supabaseUrl}/auth/v1/admin/users`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, app_metadata: { role: "admin" } }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return { email, password: PASSWORD };
}
