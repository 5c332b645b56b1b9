/**
 * Paging fields of list and search routes (R-LIM-028, R-END-151): limit default PAGE_SIZE_DEFAULT (20), at most
 * PAGE_SIZE_MAX (100: more is a 422, D-28), offset default 0. Query strings are coerced; JSON bodies are not.
 * Typeahead routes (suggest, autocomplete) keep their own smaller defaults (ruling recorded by the filter helper).
 */
import { z } from "zod";
import { config } from "@/lib/config";

/** Deepest offset of routes whose engine call must fetch offset + limit rows to cut a page (similar, chunk search). */
export const ENGINE_PAGE_OFFSET_MAX = 1000;

export const pageLimit = () => z.int().min(1).max(config().PAGE_SIZE_MAX).default(config().PAGE_SIZE_DEFAULT);
export const pageOffset = (max = 10_000) => z.int().min(0).max(max).default(0);
export const pageLimitParam = () => z.coerce.number().int().min(1).max(config().PAGE_SIZE_MAX).default(config().PAGE_SIZE_DEFAULT);
export const pageOffsetParam = (max = 10_000) => z.coerce.number().int().min(0).max(max).default(0);
