/**
 * The one value of `key` in this process, made on first use and kept on globalThis under that registered symbol: the
 * launcher imports its own copy of a module while Next bundles another into its server chunks, both run in one
 * process, and registries, queues and request scopes must be shared between them.
 */
export function processShared<T>(key: symbol, make: () => T): T {
  const g = globalThis as unknown as Record<symbol, T | undefined>;
  return (g[key] ??= make());
}
