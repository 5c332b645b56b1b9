/**
 * Category ticks for recharts bar charts that fit their axis: the label wrapped on at most two lines between words,
 * the rest cut with "…", the whole label as the tick's SVG <title> (the bar's tooltip shows it too). At 11 px a
 * character is about 6 px, so a 140 px axis takes 22 characters a line.
 */
/**
 * A category label as at most `maxLines` lines of about `perLine` characters, broken between words (a word longer
 * than a line is cut); what does not fit ends the last line with "…".
 */
export function tickLines(label: string, perLine: number, maxLines: number): string[] {
  const words = label.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = "";
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i].length > perLine ? `${words[i].slice(0, perLine - 1)}…` : words[i];
    const next = current ? `${current} ${w}` : w;
    if (next.length <= perLine) {
      current = next;
      continue;
    }
    lines.push(current);
    current = w;
    if (lines.length === maxLines) break;
  }
  if (lines.length < maxLines && current) {
    lines.push(current);
    current = "";
  }
  const cut = i < words.length || current !== "";
  if (cut && lines.length) {
    const last = lines[lines.length - 1];
    lines[lines.length - 1] = last.length >= perLine ? `${last.slice(0, perLine - 1)}…` : `${last}…`;
  }
  return lines.length ? lines : [label];
}

/** A category tick (recharts passes x, y and payload), right-aligned to the axis, wrapped by tickLines. */
export function WrappedTick(props: { x?: number | string; y?: number | string; payload?: { value?: unknown }; perLine?: number }) {
  const label = String(props.payload?.value ?? "");
  const lines = tickLines(label, props.perLine ?? 22, 2);
  const x = Number(props.x ?? 0);
  const y = Number(props.y ?? 0);
  const first = y - ((lines.length - 1) * 12) / 2;
  return (
    <g>
      <title>{label}</title>
      <text x={x} y={first} textAnchor="end" dominantBaseline="central" fontSize={11} fill="var(--color-muted)">
        {lines.map((line, i) => (
          <tspan key={i} x={x} dy={i === 0 ? 0 : 12}>
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}
