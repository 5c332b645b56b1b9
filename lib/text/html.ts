/** The one HTML escaper: text placed between tags or inside a double-quoted attribute. */
const HTML_SPECIAL = /[&<>"]/;

export function escapeHtml(s: string): string {
  // Most words and snippets hold none of the four (this runs per hit field on the search path): test before replacing.
  if (!HTML_SPECIAL.test(s)) return s;
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
