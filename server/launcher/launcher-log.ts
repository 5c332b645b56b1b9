/** Launcher output: one prefixed line per event, so a developer can follow start-up at a glance. */
export function say(line: string): void {
  process.stdout.write(`[stack] ${line}\n`);
}

/** Measure a step and say how long it took. */
export async function step<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  say(`${label}…`);
  const result = await fn();
  say(`${label}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}
