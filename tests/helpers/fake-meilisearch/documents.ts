/** Documents as the fake stores and returns them: the displayed projection, `_vectors` validation and reading. */
import { MeiliError, type Doc, type Index, type Json } from "./model";

/** Displayed ∩ requested attributes, in document order; `_vectors` only on request (documented since v1.9). */
export function projectDocument(idx: Index, d: Doc, fields: string[], retrieveVectors: boolean): Doc {
  const displayed = idx.settings.displayedAttributes;
  const out: Doc = {};
  for (const [k, v] of Object.entries(d)) {
    if (k === "_vectors") continue;
    if (!(displayed.includes("*") || displayed.includes(k))) continue;
    if (!(fields.includes("*") || fields.includes(k))) continue;
    out[k] = v;
  }
  if (retrieveVectors && d._vectors && (displayed.includes("*") || displayed.includes("_vectors"))) {
    const vs: Record<string, Json> = {};
    for (const [name, v] of Object.entries(d._vectors as Record<string, Json>)) {
      vs[name] = { embeddings: Array.isArray(v) && typeof v[0] === "number" ? [v] : (v as Json), regenerate: false };
    }
    out._vectors = vs;
  }
  return out;
}

export function validateVectors(idx: Index, d: Doc): void {
  const vs = d._vectors;
  if (vs === undefined || vs === null) return;
  if (typeof vs !== "object" || Array.isArray(vs)) {
    throw new MeiliError(400, "invalid_document_vectors_field", "The `_vectors` field in the document is not an object.");
  }
  for (const [name, v] of Object.entries(vs)) {
    const e = idx.settings.embedders[name];
    if (!e) {
      throw new MeiliError(400, "invalid_document_vectors_field", `Bad embedder configuration in the document with id: \`${String(d[idx.primaryKey ?? "id"])}\`. Could not find embedder with name \`${name}\`.`);
    }
    const vec = Array.isArray(v) ? v : ((v as Record<string, Json> | null)?.embeddings as Json);
    if (vec === null || vec === undefined) continue;
    const flat = Array.isArray(vec) && Array.isArray(vec[0]) ? (vec[0] as Json[]) : (vec as Json[]);
    if (flat.length !== e.dimensions) {
      throw new MeiliError(400, "invalid_vector_dimensions", `Index \`${idx.uid}\`: Invalid vector dimensions: expected: \`${String(e.dimensions)}\`, found: \`${flat.length}\`.`);
    }
  }
}

export function docVector(d: Doc, embedder: string): number[] | null {
  const v = (d._vectors as Record<string, Json> | undefined)?.[embedder];
  if (!v) return null;
  if (Array.isArray(v) && typeof v[0] === "number") return v as number[];
  if (Array.isArray(v) && Array.isArray(v[0])) return v[0] as number[];
  const emb = (v as Record<string, Json>).embeddings;
  if (Array.isArray(emb) && Array.isArray(emb[0])) return emb[0] as number[];
  if (Array.isArray(emb)) return emb as number[];
  return null;
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
