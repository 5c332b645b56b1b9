import path from "node:path";
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

/*
 * One order of folders, bottom first (docs/engineering.md, "Layers point one way"): a file may import only from its
 * own folder or from a folder earlier in the list, so no import points up and the folder graph has no cycle (every
 * cycle has an edge pointing up). Every production file belongs to one of these folders: a file in a folder the list
 * does not name is refused until it is placed. Tests are not checked (they may import anything but app/); bench/ is a
 * target only (server/cli generates docs from its truth tables).
 */
const LAYER_ORDER = [
  "lib", // loose files: config, logger, lru, json-depth, security-headers, request-budget, process-shared
  "lib/text",
  "lib/i18n",
  "lib/auth",
  "lib/errors",
  "lib/schema",
  "lib/supabase",
  "lib/llm",
  "lib/search",
  "lib/citations",
  "lib/extraction",
  "lib/analysis",
  "lib/import",
  "lib/events",
  "lib/backend",
  "lib/client",
  "lib/api",
  "components",
  "app", // pages and route handlers, and the loose files at the top (middleware.ts, instrumentation.ts, configs)
  "supabase/seed",
  "supabase/local",
  "server", // what every process shares: paths, migrations, the .env.local file, the supervision protocol
  "server/app", // the app server: stamps the client address, serves static files when no proxy does
  "server/worker", // pg-boss jobs and schedules
  "server/launcher", // `npm start`: Postgres, gateway, mail catcher, worker and app, supervised
  "bench",
  "server/cli",
  "scripts", // release and build steps
];

/** The layer folder of a repository path (posix, relative, no extension needed), or null for tests (not checked). */
function layerOf(rel) {
  const parts = rel.split("/");
  if (parts.length === 1) return "app";
  const [top, second] = parts;
  if (top === "lib") return parts.length === 2 ? "lib" : `lib/${second}`;
  if (top === "supabase") return parts.length === 2 ? "supabase" : `supabase/${second}`;
  if (top === "server") return parts.length > 2 ? `server/${second}` : "server";
  if (top === "tests" || top === "node_modules" || top.startsWith(".")) return null;
  // app, components, bench, scripts, deploy, and any new top-level folder (refused until placed in the order).
  return top;
}

const layersPlugin = {
  rules: {
    "one-way": {
      meta: {
        type: "problem",
        messages: {
          up: "{{from}} may not import {{to}}: layers point one way ({{order}}). Move the shared piece down, or pass it in.",
          unplaced: "{{from}} is not in LAYER_ORDER (eslint.config.mjs): place the folder in the layer order first.",
          tests: "Production code never imports tests/.",
        },
        schema: [],
      },
      create(context) {
        const root = context.cwd;
        const file = path.relative(root, context.filename).split(path.sep).join("/");
        const from = layerOf(file);
        if (from === null || from === "bench") return {};
        const fromRank = LAYER_ORDER.indexOf(from);
        const check = (node, spec) => {
          if (typeof spec !== "string") return;
          let target;
          if (spec.startsWith("@/")) target = spec.slice(2);
          else if (spec.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
          else return; // a package
          if (target.startsWith("tests/")) return context.report({ node, messageId: "tests" });
          const to = layerOf(target);
          if (to === null || to === from) return;
          const toRank = LAYER_ORDER.indexOf(to);
          if (toRank > fromRank || toRank < 0) {
            const order = LAYER_ORDER.slice(Math.min(fromRank, toRank < 0 ? fromRank : toRank), Math.max(fromRank, toRank) + 1).join(" < ");
            context.report({ node, messageId: "up", data: { from, to, order } });
          }
        };
        return {
          Program(node) {
            if (fromRank < 0) context.report({ node, messageId: "unplaced", data: { from } });
          },
          ImportDeclaration: (node) => check(node.source, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
          ExportAllDeclaration: (node) => check(node.source, node.source.value),
          ImportExpression: (node) => node.source.type === "Literal" && check(node.source, node.source.value),
        };
      },
    },
  },
};

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
  {
    files: ["**/*.{ts,tsx,mts,mjs}"],
    ignores: ["tests/**", "bench/**", "playwright.config.ts", "vitest.config.mts"],
    plugins: { layers: layersPlugin },
    rules: { "layers/one-way": "error" },
  },
  restrict(["lib/api/**", "lib/*.ts", "lib/auth/**", "lib/i18n/**", "lib/text/**", "middleware.ts"], UP_TO_APP),
  restrict(["lib/backend/**"], [API, NEXT, ...UP_TO_APP]),
  restrict(["lib/search/**", "lib/supabase/**", "lib/llm/**"], [API, BACKEND, ...UP_TO_APP]),
  restrict(["lib/schema/**"], [API, BACKEND, ...UP_TO_APP]),
  restrict(["components/**", "lib/client/**", "lib/events/**"], [...BROWSER_SIDE, UP_TO_APP[0], UP_TO_APP[2]]),
];
export default config;
