import { cx } from "./cx";

/** A placeholder block with a fixed size so results do not shift the layout when they arrive. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cx("animate-pulse-soft rounded-control bg-sunken", className)} />;
}
