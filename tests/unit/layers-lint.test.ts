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
