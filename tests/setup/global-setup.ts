import type { TestProject } from "vitest/node";
import { startTestStack, type TestStackEnv } from "../helpers/test-stack";

declare module "vitest" {
  export interface ProvidedContext {
    stack: TestStackEnv;
  }
}

/**
 * Start the test stack once per run (or reuse the one `tests/run-all.ts` started and described in TEST_STACK_ENV)
 * and hand its addresses to every test file through `inject("stack")`.
 */
export default async function setup(project: TestProject) {
  const fromRunner = process.env.TEST_STACK_ENV;
  if (fromRunner) {
    project.provide("stack", JSON.parse(fromRunner) as TestStackEnv);
    return;
  }
  const stack = await startTestStack({ withApp: false });
  project.provide("stack", stack.env);
  return async () => {
    await stack.stop();
  };
}
