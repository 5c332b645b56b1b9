/**
 * The TypeScript type of a parsed BaseSchemaFilters object (spec: Filter object), one value shape per filter control.
 * Types only, so the browser (filter codec, filter UI) can share them with the server's parser (lib/schema/filters.ts)
 * without pulling zod schemas or settings into the client bundle.
 */
import type { FilterControl } from "./filter-fields";

/** `{min,max}` on a numeric key; either bound may be absent or null (then no clause for it). */
export interface NumericRange {
  min?: number | null;
  max?: number | null;
}

/** A date key: one YYYY-MM-DD day, `{from,to}`, or `{min,max}` with ISO dates (D-08). Bounds inclusive. */
export type DateRangeValue =
  | string
  | { from?: string | null; to?: string | null }
  | { min?: string | null; max?: string | null };

/** The value each control takes. */
export interface FilterValueOfControl {
  /** Any-of; [] matches nothing (D-09). */
  enum_multi: string[];
  tag_array: string[];
  /** true or false; the third state is the key left out. */
  boolean_tri: boolean;
  /** A number (equality) or an inclusive range. */
  numeric_range: number | NumericRange;
  date_range: DateRangeValue;
  /** Case-insensitive containment; blank adds no clause. */
  substring: string;
  /** Collection ids (UUIDs); [] = no filter. */
  uuid_membership: string[];
}

export type BaseSchemaFilterValue = FilterValueOfControl[FilterControl];

/** A validated filter object: keys are registry filter keys (validated at runtime; the registry is data). */
export type BaseSchemaFilters = { [key: string]: BaseSchemaFilterValue };
