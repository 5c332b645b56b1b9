/**
 * Row types of raw `pg` queries, from the generated `Database` types (lib/supabase/database.types.ts, `npm run
 * db:types`), so a renamed or retyped column breaks the build instead of a query. The generated Row is PostgREST's JSON
 * view of a table; node-pg parses `timestamptz`, `timestamp` and `date` into Date, so those columns are named in
 * `DateCols` (select a date as `::text` to keep the generated string). `bigint` columns come back from pg as strings:
 * select them cast (`::int`) or leave them out of a PgRow. What is no table's column (a count, an `exists`, a function's
 * answer, a joined user's e-mail) keeps a small inline type beside its SQL: there is no generated type to drift from.
 */
import type { Database, Tables } from "./database.types";

export type { Tables };

type TableName = keyof Database["public"]["Tables"];

/** The columns `Cols` of table `T` as node-pg returns them: `DateCols` (a subset) as Date, null kept where nullable. */
export type PgRow<T extends TableName, Cols extends keyof Tables<T>, DateCols extends Cols = never> = {
  [C in Cols]: C extends DateCols ? Date | Extract<Tables<T>[C], null> : Tables<T>[C];
};
