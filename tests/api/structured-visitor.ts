import { Browser, signedInBrowser } from "../helpers/http";

/** A visitor with cookies and a loopback address of its own (the shared Browser of tests/helpers/http.ts). */
export { Browser as Visitor };

/** A Visitor signed in as a new user through POST /api/auth/sign-in. */
export async function signedInVisitor() {
  const { browser, user } = await signedInBrowser();
  return { visitor: browser, user };
}
