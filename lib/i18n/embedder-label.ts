import { fmt } from "./locale";

/** The translated labels of the embedders the interface knows (t.accounts.settings.embedderLabels). */
export interface EmbedderLabels {
  "local-hash": string;
  "local-hash-768": string;
  /** A configured model (`ai:<model>`), with {model}. */
  model: string;
}

/**
 * An embedder's label in the interface language. The server's labels are English (health and logs show them); the
 * known lexical ids and `ai:<model>` (lib/search/embedders) have translations, any other id keeps the server's label.
 */
export function embedderLabel(labels: EmbedderLabels, id: string, serverLabel: string): string {
  if (id === "local-hash" || id === "local-hash-768") return labels[id];
  if (id.startsWith("ai:") && id.length > 3) return fmt(labels.model, { model: id.slice(3) });
  return serverLabel;
}
