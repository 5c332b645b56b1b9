import http from "node:http";
import { createUser } from "./supabase";
import { stackEnv } from "./stack";

/** A loopback address of its own (all of 127.0.0.0/8 reaches this host). */
const randomLoopback = () =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/**
 * A browser-like HTTP client for API tests: keeps cookies between requests (as a browser would) and sends JSON.
 * One instance = one visitor, with a loopback source address of its own: the app limits per client address (D-21,
 * D-22), and suites that send hundreds of requests from one shared address would meet the limit meant for one visitor.
 */
export class Browser {
  readonly address = randomLoopback();
  private cookies = new Map<string, string>();

  constructor(
    readonly baseUrl = stackEnv().appUrl as string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {
    if (!baseUrl) throw new Error("the test stack has no appUrl: run API tests through the api project");
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  clearCookies(): void {
    this.cookies.clear();
  }

  cookieNames(): string[] {
    return [...this.cookies.keys()];
  }

  /** Set or (with undefined) remove a cookie, as a script in the page could. */
  setCookie(name: string, value: string | undefined): void {
    if (value === undefined) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const url = new URL(path, this.baseUrl);
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method,
          localAddress: this.address,
          headers: {
            ...this.defaultHeaders,
            // A write with a body is JSON, as the app's own client sends it (the web tier answers 415 to any other
            // body); one without a body sends neither type nor length, as curl -X DELETE and fetch do.
            ...(payload !== undefined ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) } : {}),
            ...(cookie ? { cookie } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const out = new Headers();
            for (const line of res.headers["set-cookie"] ?? []) {
              this.keepCookie(line);
              out.append("set-cookie", line);
            }
            for (const [k, v] of Object.entries(res.headers)) {
              if (v !== undefined && k !== "set-cookie") out.set(k, Array.isArray(v) ? v.join(", ") : v);
            }
            const status = res.statusCode ?? 0;
            resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: out }));
          });
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  private keepCookie(line: string): void {
    const [pair, ...attrs] = line.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
    if (expired || value === "") this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  get = (path: string, headers?: Record<string, string>) => this.request("GET", path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request("POST", path, body ?? {}, headers);
  patch = (path: string, body?: unknown) => this.request("PATCH", path, body ?? {});
  delete = (path: string, body?: unknown) => this.request("DELETE", path, body);
}

export { createUser, TEST_PASSWORD, uniqueEmail } from "./supabase";

/** A Browser signed in as a new (or given) user through POST /api/auth/sign-in. */
export async function signedInBrowser(opts: { admin?: boolean } = {}) {
  const user = await createUser(opts);
  const browser = new Browser();
  const res = await browser.post("/api/auth/sign-in", { email: user.email, password: user.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return { browser, user };
}
