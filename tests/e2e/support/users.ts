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
