import { BuildFailed, type RunningBuild } from "./next-build";

/**
 * Run `work` (the database, the gateway, seeding, the search index) while `build` compiles, and resolve once both are
 * done. The first failure wins: a build that fails rejects at once, whatever `work` is doing (the launcher then stops
 * everything, `work` included); `work` that fails stops the build before rejecting, so nothing keeps compiling for
 * a start that is over. Without a build (it is current, or not wanted) this is just `work()`.
 */
export async function alongside<T>(build: RunningBuild | null, work: () => Promise<T>): Promise<T> {
  if (!build) return work();
  // Settles only when the build fails: a build that succeeds first leaves the race to `work`.
  const buildFailure = build.done.then(() => new Promise<never>(() => undefined));
  let result: T;
  try {
    result = await Promise.race([work(), buildFailure]);
  } catch (e) {
    if (!(e instanceof BuildFailed)) await build.stop();
    throw e;
  }
  await build.done;
  return result;
}
