/**
 * Hand a text the page already holds to the browser as a file (a cohort's BibTeX / CSL-JSON, a comparison's CSV).
 * Lists the server holds are exported by the server instead (lib/backend/exports, components/export/export-button.tsx).
 */
import { stripDiacritics } from "@/lib/text/fold";

/** A file name safe on every OS: "Porównanie kohort" → "Porownanie-kohort.csv". */
export function downloadFileName(name: string, extension: string): string {
  const base = stripDiacritics(name) // ó → o, Ł → L
    .replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "export";
  return `${base}.${extension}`;
}

export function downloadText(content: string, fileName: string, mime: string): void {
  downloadBlob(new Blob([content], { type: mime }), fileName);
}

/** Save a blob under `fileName` through a temporary link (the object URL is released once the click is handled). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
