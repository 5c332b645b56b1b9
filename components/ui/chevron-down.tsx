/** The disclosure chevron of popover and accordion triggers (decorative: the trigger's text names it). */
export function ChevronDown({ className = "size-3.5" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="2">
      <path d="m5 8 5 5 5-5" />
    </svg>
  );
}
