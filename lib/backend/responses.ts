/**
 * The bodies of the web routes the browser calls, gathered for lib/client. Each is defined once, beside the backend
 * function that builds it; lib/client imports them with `import type` only, so no server code reaches the browser.
 */
import type { autocomplete, suggest } from "./search";

export type { SearchDocumentsBody } from "./search";
/** GET /api/search/autocomplete. */
export type AutocompleteBody = Awaited<ReturnType<typeof autocomplete>>;
/** GET /api/search/suggest. */
export type SuggestBody = Awaited<ReturnType<typeof suggest>>;

export type {
  Collection,
  CollectionDocument,
  CollectionDocumentPage,
  CollectionPage,
  CollectionWithDocuments,
} from "./collections/collections";
export type { FromFilterResponse } from "./collections/from-filter";

export type { AggregateResult, CategoricalDist, Distribution, NumericDist, YearDist } from "./extractions/aggregate";
export type { FacetsResponse } from "./extractions/facets";
export type { FilterResponse, FilterResultRow } from "./extractions/filter";
export type { NlFilterResult } from "@/lib/llm/nl-filter";

// Extraction area (issue 18): schemas with versions.
export type {
  ExtractionSchema,
  FieldChange,
  SchemaComparison,
  SchemaPage,
  SchemaSummary,
  SchemaVersion,
  SchemaVersionList,
} from "./schemas/schemas";
export type { GeneratedSchema } from "./schemas/generate";
