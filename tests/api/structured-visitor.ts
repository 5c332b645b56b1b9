import http from "node:http";
import { createUser } from "../helpers/http";
import { stackEnv } from "../helpers/stack";

/** A loopback address of its own (127.0.0.0/8 all reaches this host), so the visitor has its own rate-limit bucket. */
const randomLoopback = () =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/**
 * A browser-like client that keeps cookies, like tests/helpers/http.ts's Browser, but whose requests leave from a
 * loopback address of its own. The app limits per client address (D-21, D-22), and these suites send hundreds of
 * requests: from one shared address they would meet the 100/min limit meant for one visitor.
 */
export class Visitor {
  readonly address = randomLoopback();
  private cookies = new Map<string, string>();

  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const url = new URL(path, stackEnv().appUrl);
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
            ...(payload !== undefined ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) } : {}),
            ...(cookie ? { cookie } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            for (const line of res.headers["set-cookie"] ?? []) this.keepCookie(line);
            const out = new Headers();
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

/** A Visitor signed in as a new user through POST /api/auth/sign-in. */
export async function signedInVisitor() {
  const user = await createUser();
  const visitor = new Visitor();
  const res = await visitor.post("/api/auth/sign-in", { email: user.email, password: user.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return { visitor, user };
}
