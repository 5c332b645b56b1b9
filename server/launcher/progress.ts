/**
 * One progress display for the first start's overlapping work (seeding, the search index, `next build`): a bar per
 * track on a terminal (cli-progress MultiBar, launcher lines printed above the bars), and on a log file or CI one
 * status line for all tracks every few seconds plus a line when a track ends.
 */
import { MultiBar, type SingleBar } from "cli-progress";

export interface ProgressTrack {
  /** The work has begun: its clock starts and its bar appears. */
  start(detail?: string): void;
  /** Counted progress (rows, documents). */
  update(done: number, total: number): void;
  /** What it does now, for work measured in stages (the build) or not counted (the citation graph). */
  stage(detail: string, fraction?: number): void;
  /** Finished: the bar fills and says `detail`. */
  done(detail?: string): void;
  /** Failed: the bar stays where it was and says `detail`. */
  fail(detail: string): void;
}

export interface TrackTimes {
  started_ms: number | null;
  ended_ms: number | null;
}

export interface ProgressDisplay {
  track(name: string, label: string): ProgressTrack;
  /** A launcher line: above the bars on a terminal, as it is otherwise. */
  log(line: string): void;
  /** When each track started and ended, in ms since the display was made. */
  times(): Record<string, TrackTimes>;
  /** Stop drawing (the bars stay on screen as they last were). */
  close(): void;
}

type State = "waiting" | "running" | "done" | "failed";

interface TrackState {
  label: string;
  state: State;
  fraction: number;
  detail: string;
  started: number | null;
  ended: number | null;
  bar: SingleBar | null;
}

const count = new Intl.NumberFormat("en");
const WIDTH = 24;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(0)} s`;
}

function elapsed(t: TrackState, now: number): number {
  return t.started === null ? 0 : (t.ended ?? now) - t.started;
}

/** One track as text: "seeding 4,000/12,307 (32%), 12 s". */
function describe(t: TrackState, now: number): string {
  if (t.state === "waiting") return `${t.label} ${t.detail || "waiting"}`;
  return `${t.label} ${t.detail}${t.state === "running" ? `, ${seconds(elapsed(t, now))}` : ""}`;
}

export function progressDisplay(opts: { tty?: boolean; log?: (line: string) => void; everyMs?: number; now?: () => number } = {}): ProgressDisplay {
  const tty = opts.tty ?? Boolean(process.stdout.isTTY);
  const print = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = opts.now ?? (() => performance.now());
  const origin = now();
  const tracks = new Map<string, TrackState>();
  let multi: MultiBar | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const payload = (t: TrackState) => ({ line: `[stack] ${t.label.padEnd(8)} ${"█".repeat(Math.round(t.fraction * WIDTH)).padEnd(WIDTH, "░")} ${t.detail || t.state}${t.started !== null ? ` | ${seconds(elapsed(t, now()))}` : ""}` });

  const redraw = (t: TrackState) => {
    if (closed) return;
    if (tty) {
      // On stdout, with the launcher's lines (cli-progress draws on stderr unless told).
      multi ??= new MultiBar({ format: (_o, _p, p: { line: string }) => p.line, stream: process.stdout, hideCursor: true, clearOnComplete: false, stopOnComplete: false, fps: 5 });
      // Every known track gets its bar at once, in the order they were made, so the three rows never move.
      for (const other of tracks.values()) other.bar ??= multi.create(1, 0, payload(other));
      t.bar?.update(t.fraction, payload(t));
      return;
    }
    timer ??= setInterval(() => {
      const active = [...tracks.values()];
      if (active.some((x) => x.state === "running")) print(`[stack] progress: ${active.map((x) => describe(x, now())).join(" · ")}`);
    }, opts.everyMs ?? 15_000);
    timer.unref();
  };

  const end = (t: TrackState, state: State, detail: string) => {
    const ran = t.started !== null;
    t.state = state;
    t.detail = detail;
    if (state === "done") t.fraction = 1;
    // Work that had nothing to do (a warm start) draws nothing; its row shows the outcome if others are drawn.
    if (!ran) {
      t.bar?.update(t.fraction, payload(t));
      return;
    }
    t.ended = now();
    redraw(t);
    if (!tty) print(`[stack] ${t.label}: ${detail} (${seconds(elapsed(t, now()))})`);
    // Every bar finished or failed: the terminal is the launcher's again.
    if ([...tracks.values()].every((x) => x.state === "done" || x.state === "failed" || x.state === "waiting")) stopDrawing();
  };

  const stopDrawing = () => {
    if (timer) clearInterval(timer);
    timer = null;
    if (multi) {
      for (const t of tracks.values()) t.bar?.update(t.fraction, payload(t));
      multi.stop();
    }
    multi = null;
    for (const t of tracks.values()) t.bar = null;
  };

  return {
    track(name, label) {
      const t: TrackState = { label, state: "waiting", fraction: 0, detail: "", started: null, ended: null, bar: null };
      tracks.set(name, t);
      return {
        start(detail = "") {
          t.state = "running";
          t.started = now();
          t.detail = detail;
          redraw(t);
        },
        update(done, total) {
          t.fraction = total > 0 ? Math.min(1, done / total) : 1;
          t.detail = `${count.format(done)}/${count.format(total)} (${Math.floor(t.fraction * 100)}%)`;
          redraw(t);
        },
        stage(detail, fraction) {
          t.detail = detail;
          if (fraction !== undefined) t.fraction = Math.min(1, Math.max(t.fraction, fraction));
          redraw(t);
        },
        done: (detail = "done") => end(t, "done", detail),
        fail: (detail) => end(t, "failed", detail),
      };
    },
    log(line) {
      if (multi) multi.log(`${line}\n`);
      else print(line);
    },
    times() {
      const out: Record<string, TrackTimes> = {};
      for (const [name, t] of tracks) {
        out[name] = { started_ms: t.started === null ? null : Math.round(t.started - origin), ended_ms: t.ended === null ? null : Math.round(t.ended - origin) };
      }
      return out;
    },
    close() {
      stopDrawing();
      closed = true;
    },
  };
}
