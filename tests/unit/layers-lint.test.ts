import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/*
 * The layer rule of eslint.config.mjs (app → lib/api → lib/backend → lib/{search, schema, supabase, llm}; components
 * never import server code) fires on wrong-way imports and stays quiet on the right-way ones. The files are virtual:
 * lintText with a path only picks which blocks of the config apply.
 */
const root = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: root });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
}

/** What the folder-order rule (layers/one-way) says of a virtual file. */
async function orderErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === "layers/one-way").map((m) => m.message);
}

// Loading the config (Next, React, TypeScript plugins) takes seconds on a busy machine: a generous timeout, not a bound.
describe("layers point one way (eslint)", { timeout: 120_000 }, () => {
  it.each([
    ["lib/backend/x.ts", 'import { withRoute } from "@/lib/api/route";\nvoid withRoute;\n'],
    ["lib/backend/sub/x.ts", 'import { resolveIdentity } from "../../api/identity";\nvoid resolveIdentity;\n'],
    ["lib/backend/x.ts", 'import { NextResponse } from "next/server";\nvoid NextResponse;\n'],
    ["lib/supabase/x.ts", 'import type { Identity } from "@/lib/api/identity";\nexport type X = Identity;\n'],
    ["lib/llm/x.ts", 'import { documentMetadata } from "@/lib/backend/documents";\nvoid documentMetadata;\n'],
    ["lib/search/x.ts", 'import { guestKey } from "@/lib/backend/guest";\nvoid guestKey;\n'],
    ["lib/schema/x.ts", 'import { checkId } from "@/lib/backend/documents";\nvoid checkId;\n'],
    ["lib/api/x.ts", 'import { Header } from "@/components/shell/header";\nvoid Header;\n'],
    ["lib/backend/x.ts", 'import { repoRoot } from "@/server/paths";\nvoid repoRoot;\n'],
    ["lib/config.ts", 'import { repoRoot } from "../server/paths";\nvoid repoRoot;\n'],
    ["components/x.tsx", 'import { documentMetadata } from "@/lib/backend/documents";\nvoid documentMetadata;\n'],
    ["components/x.tsx", 'import { createSessionClient } from "@/lib/supabase/server";\nvoid createSessionClient;\n'],
    ["components/x.tsx", 'import { createClient } from "@supabase/supabase-js";\nvoid createClient;\n'],
    ["components/x.tsx", 'import { config } from "@/lib/config";\nvoid config;\n'],
    ["lib/client/x.ts", 'import { pageIdentity } from "@/lib/api/pages";\nvoid pageIdentity;\n'],
  ])("refuses a wrong-way import in %s", async (file, code) => {
    expect(await layerErrors(file, code)).toHaveLength(1);
  });

  it.each([
    ["app/x/page.tsx", 'import { getSessionUser } from "@/lib/api/pages";\nimport { documentMetadata } from "@/lib/backend/documents";\nvoid getSessionUser; void documentMetadata;\n'],
    ["lib/api/x.ts", 'import { documentMetadata } from "@/lib/backend/documents";\nvoid documentMetadata;\n'],
    ["lib/backend/x.ts", 'import { getSearchEngine } from "@/lib/search/engine";\nimport type { Identity } from "./identity";\nvoid getSearchEngine;\nexport type X = Identity;\n'],
    ["components/x.tsx", 'import type { HealthStatus } from "@/lib/backend/health/status";\nimport type { SessionUser } from "@/lib/api/pages";\nexport type X = [HealthStatus, SessionUser];\n'],
    ["lib/client/x.ts", 'import { uuidSchema } from "@/lib/schema/uuid";\nvoid uuidSchema;\n'],
  ])("allows a right-way import in %s", async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});

/*
 * The folder order (eslint.config.mjs LAYER_ORDER) covers every production folder: an import may only point to the
 * file's own folder or one earlier in the order, so a folder cycle is refused at whichever of its imports points up.
 */
describe("every folder has its place in one order, and no import points up (eslint layers/one-way)", { timeout: 120_000 }, () => {
  it.each([
    ["lib/search/x.ts", 'import { config } from "@/lib/backend/documents";\nvoid config;\n', "a lower folder importing a higher one"],
    ["lib/errors/x.ts", 'import { timedFetch } from "@/lib/supabase/timeout";\nvoid timedFetch;\n', "the half of a lib/errors ↔ lib/supabase cycle that points up"],
    ["lib/llm/x.ts", 'import { words } from "../search/text/tokenize";\nvoid words;\n', "the half of a lib/search ↔ lib/llm cycle that points up (relative path)"],
    ["lib/analysis/x.ts", 'import { generateJudgment } from "@/supabase/seed/generate";\nvoid generateJudgment;\n', "production code importing the demo seed"],
    ["supabase/local/x.ts", 'import { repoRoot } from "../../server/paths";\nvoid repoRoot;\n', "the gateway importing the launcher"],
    ["supabase/seed/x.ts", 'import { readEnvFile } from "../../server/env-file";\nvoid readEnvFile;\n', "the seed importing the launcher"],
    ["lib/extraction/x.ts", 'export { foldDiacritics } from "@/lib/backend/documents";\n', "a re-export that points up"],
    ["lib/analysis/x.ts", 'export async function f() {\n  return import("@/lib/backend/documents");\n}\n', "a dynamic import that points up"],
    ["lib/backend/x.ts", 'import { stackEnv } from "@/tests/helpers/stack";\nvoid stackEnv;\n', "production code importing tests"],
    ["lib/newfolder/x.ts", "export const x = 1;\n", "a folder the order does not place"],
  ])("refuses %s (%s)", async (file, code) => {
    expect(await orderErrors(file, code)).toHaveLength(1);
  });

  it.each([
    ["lib/supabase/x.ts", 'import { ApiError } from "@/lib/errors";\nvoid ApiError;\n'],
    ["lib/search/x.ts", 'import { llmConfigured } from "@/lib/llm/provider";\nvoid llmConfigured;\n'],
    ["supabase/seed/x.ts", 'import { Rng } from "@/lib/analysis/prng";\nvoid Rng;\n'],
    ["server/x.ts", 'import { startGateway } from "../supabase/local/gateway";\nvoid startGateway;\n'],
    ["server/cli/x.ts", 'import { readEnvFile } from "../env-file";\nimport { seedCorpus } from "../../supabase/seed/corpus";\nvoid readEnvFile; void seedCorpus;\n'],
    ["lib/backend/sub/x.ts", 'import { notFound } from "../../errors";\nimport { x } from "./y";\nvoid notFound; void x;\n'],
  ])("allows %s", async (file, code) => {
    expect(await orderErrors(file, code)).toEqual([]);
  });
});
