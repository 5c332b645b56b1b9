/**
 * bench/search-through-app: the through-the-app phase of bench/search alone, against an app that is already up (no
 * database of its own, no index build): p50/p95 of the 40 bench queries (keyword, hybrid 0.5, autocomplete),
 * signed in as a throwaway user. Prints JSON.
 *
 *   npx tsx bench/search-through-app.ts --app-url http://127.0.0.1:3000 [--rounds 5]
 *
 * Start the app with the search limits raised: `SEARCH_DOCUMENTS_RATE_LIMIT=1000000
 * GENERAL_RATE_LIMIT_PER_MINUTE=1000000 npm start`.
 */
import { parseArgs } from "node:util";
import { measureThroughApp } from "./lib/app-latency";

const { values } = parseArgs({ options: { "app-url": { type: "string", default: "http://127.0.0.1:3000" }, rounds: { type: "string", default: "5" } } });

measureThroughApp(values["app-url"], Number(values.rounds))
  .then((r) => process.stdout.write(JSON.stringify(r, null, 2) + "\n"))
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
