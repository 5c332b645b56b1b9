import type pg from "pg";
import { PgrstError } from "./errors";

export interface FunctionParam {
  name: string;
  /** format_type() of the declared type, e.g. `integer`, `text[]`, `jsonb`, `public.my_enum`. */
  type: string;
  variadic: boolean;
  hasDefault: boolean;
}

export interface FunctionInfo {
  schema: string;
  name: string;
  /** i = immutable, s = stable, v = volatile. */
  volatility: "i" | "s" | "v";
  returnsSet: boolean;
  returnsVoid: boolean;
  /** Composite or record (OUT/TABLE columns): rows are answered as JSON objects. */
  returnsComposite: boolean;
  params: FunctionParam[];
}

interface ProcRow {
  schema: string;
  name: string;
  volatility: "i" | "s" | "v";
  retset: boolean;
  returns_void: boolean;
  returns_composite: boolean;
  nargdefaults: number;
  modes: string[];
  names: string[];
  types: string[];
}

/**
 * Every plain function called `name` in `schema`, read from pg_proc on each call (the local stack has no schema
 * cache to reload: a function created a moment ago is callable at once). A named statement: each connection parses
 * and plans it once (its planning over three catalogs cost more than its run); the rows are read afresh every time.
 */
export async function findFunctions(db: Pick<pg.Pool, "query">, schema: string, name: string): Promise<FunctionInfo[]> {
  const { rows } = await db.query<ProcRow>({
    name: "gateway_find_functions",
    text: `select n.nspname as schema, p.proname as name, p.provolatile as volatility, p.proretset as retset,
       p.prorettype = 'void'::regtype as returns_void,
       (t.typtype = 'c' or p.prorettype = 'record'::regtype) as returns_composite,
       p.pronargdefaults::int as nargdefaults,
       coalesce(p.proargmodes::text[], array_fill('i'::text, array[p.pronargs::int])) as modes,
       coalesce(p.proargnames, array_fill(''::text, array[coalesce(array_length(p.proallargtypes, 1), p.pronargs::int)])) as names,
       array(select format_type(a.t, null)
             from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as a(t, i)
             order by a.i) as types
     from pg_proc p
     join pg_namespace n on n.oid = p.pronamespace
     join pg_type t on t.oid = p.prorettype
     where n.nspname = $1 and p.proname = $2 and p.prokind = 'f'
     order by p.oid`,
    values: [schema, name],
  });
  return rows.map((r) => {
    const inputs: FunctionParam[] = [];
    r.modes.forEach((mode, i) => {
      if (mode === "i" || mode === "b" || mode === "v") {
        inputs.push({ name: r.names[i] ?? "", type: r.types[i], variadic: mode === "v", hasDefault: false });
      }
    });
    // pg_proc counts defaults over the trailing input parameters.
    for (let i = inputs.length - r.nargdefaults; i < inputs.length; i++) if (i >= 0) inputs[i].hasDefault = true;
    return {
      schema: r.schema,
      name: r.name,
      volatility: r.volatility,
      returnsSet: r.retset,
      returnsVoid: r.returns_void,
      returnsComposite: r.returns_composite,
      params: inputs,
    };
  });
}

/** The single unnamed json/jsonb parameter PostgREST passes the whole POST body to. */
export function takesWholeBody(fn: FunctionInfo): boolean {
  return fn.params.length === 1 && fn.params[0].name === "" && (fn.params[0].type === "json" || fn.params[0].type === "jsonb");
}

/** Named arguments match when every key is a parameter and every parameter without a default is given. */
function matchesKeys(fn: FunctionInfo, keys: Set<string>): boolean {
  if (fn.params.length === 0) return keys.size === 0;
  if (fn.params.some((p) => p.name === "")) return false;
  const names = new Set(fn.params.map((p) => p.name));
  for (const k of keys) if (!names.has(k)) return false;
  return fn.params.every((p) => p.hasDefault || keys.has(p.name));
}

const signature = (fn: FunctionInfo) =>
  `${fn.schema}.${fn.name}(${fn.params.map((p) => `${p.name} => ${p.type}`).join(", ")})`;

/**
 * PostgREST's overload resolution for /rpc: the functions whose parameters match the argument names. None →
 * PGRST202 (404); more than one → PGRST203 (300). As a last resort a POST body goes whole to a function with a
 * single unnamed json/jsonb parameter.
 */
export function resolveFunction(
  candidates: FunctionInfo[],
  schema: string,
  name: string,
  keys: Set<string>,
  isPost: boolean,
): { fn: FunctionInfo; wholeBody: boolean } {
  const matching = candidates.filter((fn) => matchesKeys(fn, keys));
  if (matching.length === 1) return { fn: matching[0], wholeBody: false };
  if (matching.length > 1) {
    throw new PgrstError(
      300,
      "PGRST203",
      `Could not choose the best candidate function between: ${matching.map(signature).join(", ")}`,
      null,
      "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
    );
  }
  const single = isPost ? candidates.filter(takesWholeBody) : [];
  if (single.length === 1) return { fn: single[0], wholeBody: true };

  const sorted = [...keys].sort();
  const func = `${schema}.${name}`;
  const withParams = sorted.length
    ? ` with parameter${sorted.length > 1 ? "s" : ""} ${sorted.join(", ")}`
    : " without parameters";
  const hintParams = candidates.find((c) => c.params.length && c.params.every((p) => p.name));
  throw new PgrstError(
    404,
    "PGRST202",
    `Could not find the function ${func}${sorted.length ? `(${sorted.join(", ")})` : " without parameters"} in the schema cache`,
    `Searched for the function ${func}${withParams}${isPost ? " or with a single unnamed json/jsonb parameter" : ""}, but no matches were found in the schema cache.`,
    hintParams
      ? `Perhaps you meant to call the function ${func}(${hintParams.params.map((p) => p.name).sort().join(", ")})`
      : null,
  );
}
