import type { TestProject } from "vitest/node";
import { startTestApp } from "../helpers/test-app";
import { startTestStack, testStackSettings, type TestStackEnv } from "../helpers/test-stack";

declare module "vitest" {
  export interface ProvidedContext {
    stack: TestStackEnv;
  }
}

/**
 * Start the test stack once per run (or reuse the one `tests/run-all.ts` started and described in TEST_STACK_ENV)
 * and hand its addresses to every test file through `inject("stack")`. The api and security projects also get the app
 * (`next dev` locally for quick iteration; TEST_APP_MODE=production for a built app).
 */
export default async function setup(project: TestProject) {
  const fromRunner = process.env.TEST_STACK_ENV;
  if (fromRunner) {
    project.provide("stack", JSON.parse(fromRunner) as TestStackEnv);
    return;
  }
  const stack = await startTestStack();
  let stopApp = async () => undefined as void;
  if (project.name === "api" || project.name === "security") {
    const mode = process.env.TEST_APP_MODE === "production" ? "production" : "development";
    const app = await startTestApp(stack.env, { port: testStackSettings().appPort, mode });
    stack.env.appUrl = app.url;
    stack.env.appMode = mode;
    stopApp = app.stop;
  }
  project.provide("stack", stack.env);
  return async () => {
    await stopApp();
    await stack.stop();
  };
}
