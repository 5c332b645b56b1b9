/** Launcher output: one prefixed line per event, so a developer can follow start-up at a glance. */
let sink: ((line: string) => void) | null = null;

/** Send launcher lines through `to` (the progress display prints them above its bars); null for plain stdout. */
export function setLogSink(to: ((line: string) => void) | null): void {
  sink = to;
}

export function say(line: string): void {
  if (sink) sink(`[stack] ${line}`);
  else process.stdout.write(`[stack] ${line}\n`);
}

/** Measure a step and say how long it took. */
export async function step<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  say(`${label}…`);
  const result = await fn();
  say(`${label}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}
