"use client";

import { createContext, useContext } from "react";
import { toApiFilter, type ApiFilter, type PageFilter } from "@/lib/client/filter-codec";

/**
 * The cohort a filter control's value list is counted in: the filter being edited (the drawer's draft, or the
 * applied filter for the quick strip) and the text query. Controls leave their own key out (faceted counts).
 */
export interface FacetScope {
  filter: PageFilter;
  textQuery: string;
}

const Ctx = createContext<FacetScope>({ filter: {}, textQuery: "" });

export const FacetScopeProvider = Ctx.Provider;

/** The scope's filter as the API takes it, without `ownKey`, so a selection does not hide its alternatives. */
export function useFacetScope(ownKey: string): { filters: ApiFilter; textQuery: string; others: number } {
  const scope = useContext(Ctx);
  const rest: PageFilter = { ...scope.filter };
  delete rest[ownKey];
  return { filters: toApiFilter(rest), textQuery: scope.textQuery, others: Object.keys(rest).length };
}
