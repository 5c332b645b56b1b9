import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/*
 * Layers point one way (docs/engineering.md): app → lib/api → lib/backend → lib/{search, schema, supabase, llm}.
 * Each folder lists what it must not import; a pattern matches the `@/…` alias and a relative path that climbs into
 * the same folder. Browser-side code (components, lib/client, lib/events) may import *types* from the server layers
 * (route response shapes), never values: no server module, no Supabase client, no settings.
 */
const below = (folder) => `^(@/lib/${folder}|(\\.\\./)+${folder})(/|$)`;
const pattern = (regex, message, extra = {}) => ({ regex, message, ...extra });

const API = pattern("^(@/lib/api|(\\.\\./)+api)(/|$)", "lib/api is the web tier above this layer: take what you need as an argument, or move it down.");
const BACKEND = pattern(below("backend"), "lib/backend sits above this layer: move the shared piece down (lib/schema, lib/search, …).");
const UP_TO_APP = [
  pattern("^(@/app|(\\.\\./)+app)(/|$)", "app/ is the top layer: nothing in lib/ or components/ imports it."),
  pattern("^(@/components|(\\.\\./)+components)(/|$)", "components/ are the UI: lib/ never imports them."),
  pattern("^(@/server(/|$)|(\\.\\./)+server/)", "server/ (launcher, app server, CLIs) runs the app: the app never imports it."),
];
const NEXT = pattern("^next(/|$)", "lib/backend has no Next imports (plain TypeScript, unit-testable): the route wrapper in lib/api deals with Next.");

const BROWSER_SIDE = [
  ...["api", "backend", "supabase", "search", "llm"].map((f) =>
    pattern(`^@/lib/${f}(/|$)`, `Browser-side code never imports lib/${f} (server code): a page reads through lib/api/pages.ts and passes props; only \`import type\` is allowed.`, {
      allowTypeImports: true,
    }),
  ),
  pattern("^@/lib/(config|logger)$", "Settings and the server logger stay on the server; pass what the UI needs as props."),
  pattern("^@supabase/", "Components never build Supabase clients: server data access for pages lives in lib/api/pages.ts."),
];

const restrict = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
});

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ["node_modules/**", ".tmp/**", ".next/**", ".next-*/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  restrict(["lib/api/**", "lib/*.ts", "lib/auth/**", "lib/i18n/**", "lib/text/**", "middleware.ts"], UP_TO_APP),
  restrict(["lib/backend/**"], [API, NEXT, ...UP_TO_APP]),
  restrict(["lib/search/**", "lib/supabase/**", "lib/llm/**"], [API, BACKEND, ...UP_TO_APP]),
  restrict(["lib/schema/**"], [API, BACKEND, ...UP_TO_APP]),
  restrict(["components/**", "lib/client/**", "lib/events/**"], [...BROWSER_SIDE, UP_TO_APP[0], UP_TO_APP[2]]),
];
export default config;
