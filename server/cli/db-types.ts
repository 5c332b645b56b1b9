/**
 * Writes lib/supabase/database.types.ts, the `Database` type supabase-js's generics expect, from a migrated database:
 *   npm run db:types                      (DATABASE_URL from the environment or .env.local)
 *   npm run db:types -- --stdout          (print instead of writing)
 *   npm run db:types -- --schema public --schema other
 * There is no Supabase CLI here, so this reads the catalogs itself. Only the schemas the gateway exposes over RPC are
 * read (public by default). tests/db/db-types.test.ts regenerates from the test database and fails when the checked-in
 * file differs, so run this after every migration that changes a table, type or function.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { databaseUrlFromEnv } from "./database-env";

export const DATABASE_TYPES_PATH = "lib/supabase/database.types.ts";

type Queryable = Pick<pg.Pool, "query">;

interface TypeRow {
  oid: number;
  schema: string;
  name: string;
  /** b base, c composite, d domain, e enum, p pseudo, r range, m multirange. */
  typtype: string;
  category: string;
  elem: number;
  base: number;
  relid: number;
  /** relkind of the composite's relation: c a standalone composite type, r/p/v/m a table's or view's row. */
  relkind: string | null;
}

interface AttributeRow {
  relid: number;
  name: string;
  type: number;
  not_null: boolean;
  has_default: boolean;
  identity: string;
  generated: string;
}

interface RelationRow {
  oid: number;
  schema: string;
  name: string;
  relkind: string;
}

interface ForeignKeyRow {
  relid: number;
  name: string;
  columns: string[];
  referenced_schema: string;
  referenced_relation: string;
  referenced_columns: string[];
  one_to_one: boolean;
}

interface FunctionRow {
  schema: string;
  name: string;
  retset: boolean;
  rettype: number;
  nargs: number;
  nargdefaults: number;
  modes: string[] | null;
  names: string[] | null;
  types: number[];
  identity_args: string;
}

interface EnumRow {
  oid: number;
  label: string;
}

interface Catalog {
  types: Map<number, TypeRow>;
  attributes: Map<number, AttributeRow[]>;
  relations: RelationRow[];
  foreignKeys: ForeignKeyRow[];
  functions: FunctionRow[];
  enumLabels: Map<number, string[]>;
}

async function readCatalog(db: Queryable, schemas: string[]): Promise<Catalog> {
  const types = await db.query<TypeRow>(
    `select t.oid::int, n.nspname as schema, t.typname as name, t.typtype::text, t.typcategory::text as category,
            t.typelem::int as elem, t.typbasetype::int as base, t.typrelid::int as relid, c.relkind::text
       from pg_type t
       join pg_namespace n on n.oid = t.typnamespace
       left join pg_class c on c.oid = t.typrelid`,
  );
  // Partitions are left out: they are created by date (app_events) and reached only through their parent.
  const relations = await db.query<RelationRow>(
    `select c.oid::int, n.nspname as schema, c.relname as name, c.relkind::text
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
      where (n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm') and not c.relispartition)
         or (c.relkind = 'c' and n.nspname = any($1))`,
    [schemas],
  );
  const attributes = await db.query<AttributeRow>(
    `select a.attrelid::int as relid, a.attname as name, a.atttypid::int as type, a.attnotnull as not_null,
            a.atthasdef as has_default, a.attidentity::text as identity, a.attgenerated::text as generated
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'c') and a.attnum > 0 and not a.attisdropped`,
    [schemas],
  );
  const foreignKeys = await db.query<ForeignKeyRow>(
    `select k.conrelid::int as relid, k.conname as name,
            array(select a.attname::text from unnest(k.conkey) with ordinality u(n, i)
                  join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.i) as columns,
            rn.nspname as referenced_schema, r.relname as referenced_relation,
            array(select a.attname::text from unnest(k.confkey) with ordinality u(n, i)
                  join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.n order by u.i) as referenced_columns,
            exists (select 1 from pg_constraint u
                     where u.conrelid = k.conrelid and u.contype in ('p', 'u')
                       and u.conkey::int2[] @> k.conkey::int2[] and u.conkey::int2[] <@ k.conkey::int2[]) as one_to_one
       from pg_constraint k
       join pg_class c on c.oid = k.conrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_class r on r.oid = k.confrelid
       join pg_namespace rn on rn.oid = r.relnamespace
      where k.contype = 'f' and n.nspname = any($1) and not c.relispartition and k.conparentid = 0`,
    [schemas],
  );
  // Trigger functions cannot be called, and extension members (pg_trgm, unaccent) are not the app's interface.
  const functions = await db.query<FunctionRow>(
    `select n.nspname as schema, p.proname as name, p.proretset as retset, p.prorettype::int as rettype,
            p.pronargs::int as nargs, p.pronargdefaults::int as nargdefaults, p.proargmodes::text[] as modes,
            p.proargnames as names, coalesce(p.proallargtypes, p.proargtypes::oid[])::int[] as types,
            pg_get_function_identity_arguments(p.oid) as identity_args
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = any($1) and p.prokind = 'f'
        and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)
        and not exists (select 1 from pg_depend d
                         where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`,
    [schemas],
  );
  const enums = await db.query<EnumRow>(`select enumtypid::int as oid, enumlabel as label from pg_enum order by enumtypid, enumsortorder`);

  const attributesByRel = new Map<number, AttributeRow[]>();
  for (const a of attributes.rows) attributesByRel.set(a.relid, [...(attributesByRel.get(a.relid) ?? []), a]);
  const enumLabels = new Map<number, string[]>();
  for (const e of enums.rows) enumLabels.set(e.oid, [...(enumLabels.get(e.oid) ?? []), e.label]);
  return {
    types: new Map(types.rows.map((t) => [t.oid, t])),
    attributes: attributesByRel,
    relations: relations.rows,
    foreignKeys: foreignKeys.rows,
    functions: functions.rows,
    enumLabels,
  };
}

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const key = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));
const ref = (...parts: string[]) => `Database${parts.map((p) => `[${JSON.stringify(p)}]`).join("")}`;
const nullable = (t: string) => (t === "unknown" || t.endsWith("| null") ? t : `${t} | null`);
const EMPTY = "{ [_ in never]: never }";

const STRING_TYPES = new Set([
  "text", "varchar", "bpchar", "char", "name", "uuid", "date", "time", "timetz", "timestamp", "timestamptz",
  "interval", "bytea", "inet", "cidr", "macaddr", "macaddr8", "citext", "tsvector", "tsquery", "money", "xml", "bit",
  "varbit", "regclass", "regtype", "regproc", "regprocedure", "regrole", "regnamespace", "pg_lsn",
]);
const NUMBER_TYPES = new Set(["int2", "int4", "int8", "float4", "float8", "numeric", "oid"]);

class Emitter {
  constructor(
    private readonly cat: Catalog,
    private readonly schemas: string[],
  ) {}

  /** The TypeScript type of a value of Postgres type `oid`, as PostgREST answers it in JSON. */
  tsType(oid: number): string {
    const t = this.cat.types.get(oid);
    if (!t) return "unknown";
    if (t.category === "A" && t.elem !== 0) {
      const inner = this.tsType(t.elem);
      return inner.includes(" ") ? `(${inner})[]` : `${inner}[]`;
    }
    if (t.typtype === "d") return this.tsType(t.base);
    if (t.typtype === "e") {
      if (this.schemas.includes(t.schema)) return ref(t.schema, "Enums", t.name);
      return (this.cat.enumLabels.get(oid) ?? []).map((l) => JSON.stringify(l)).join(" | ") || "string";
    }
    if (t.typtype === "c") {
      if (!this.schemas.includes(t.schema)) return "Record<string, unknown>";
      if (t.relkind === "c") return ref(t.schema, "CompositeTypes", t.name);
      if (t.relkind === "v" || t.relkind === "m") return ref(t.schema, "Views", t.name, "Row");
      return ref(t.schema, "Tables", t.name, "Row");
    }
    if (t.typtype === "r" || t.typtype === "m") return "string";
    if (t.name === "bool") return "boolean";
    if (t.name === "json" || t.name === "jsonb") return "Json";
    if (t.name === "void") return "undefined";
    if (t.name === "record") return "Record<string, unknown>";
    if (NUMBER_TYPES.has(t.name)) return "number";
    if (STRING_TYPES.has(t.name)) return "string";
    return "unknown";
  }

  private objectType(fields: { name: string; type: string; optional?: boolean }[], indent: string): string {
    if (fields.length === 0) return EMPTY;
    const lines = [...fields].sort(byName).map((f) => `${indent}  ${key(f.name)}${f.optional ? "?" : ""}: ${f.type};`);
    return `{\n${lines.join("\n")}\n${indent}}`;
  }

  private columns(relid: number): AttributeRow[] {
    return this.cat.attributes.get(relid) ?? [];
  }

  private relationships(relid: number, indent: string): string {
    const fks = this.cat.foreignKeys
      .filter((k) => k.relid === relid && this.schemas.includes(k.referenced_schema))
      .sort(byName);
    if (fks.length === 0) return "[]";
    const list = (xs: string[]) => `[${xs.map((x) => JSON.stringify(x)).join(", ")}]`;
    const items = fks.map(
      (k) =>
        `${indent}  {\n` +
        `${indent}    foreignKeyName: ${JSON.stringify(k.name)};\n` +
        `${indent}    columns: ${list(k.columns)};\n` +
        `${indent}    isOneToOne: ${k.one_to_one};\n` +
        `${indent}    referencedRelation: ${JSON.stringify(k.referenced_relation)};\n` +
        `${indent}    referencedColumns: ${list(k.referenced_columns)};\n` +
        `${indent}  },`,
    );
    return `[\n${items.join("\n")}\n${indent}]`;
  }

  private table(rel: RelationRow, indent: string): string {
    const cols = this.columns(rel.oid);
    const row = cols.map((c) => {
      const t = this.tsType(c.type);
      return { name: c.name, type: c.not_null ? t : nullable(t) };
    });
    // Identity ALWAYS and generated columns are written by the database only.
    const readOnly = (c: AttributeRow) => c.identity === "a" || c.generated !== "";
    const insert = cols.map((c) => {
      const t = this.tsType(c.type);
      if (readOnly(c)) return { name: c.name, type: "never", optional: true };
      const optional = !c.not_null || c.has_default || c.identity !== "";
      return { name: c.name, type: c.not_null ? t : nullable(t), optional };
    });
    const update = insert.map((f) => ({ ...f, optional: true }));
    const inner = `${indent}  `;
    const parts = [`${inner}Row: ${this.objectType(row, inner)};`];
    if (rel.relkind === "r" || rel.relkind === "p") {
      parts.push(`${inner}Insert: ${this.objectType(insert, inner)};`, `${inner}Update: ${this.objectType(update, inner)};`);
    }
    parts.push(`${inner}Relationships: ${this.relationships(rel.oid, inner)};`);
    return `{\n${parts.join("\n")}\n${indent}}`;
  }

  private relationGroup(schema: string, kinds: string[], indent: string): string {
    const rels = this.cat.relations.filter((r) => r.schema === schema && kinds.includes(r.relkind)).sort(byName);
    if (rels.length === 0) return EMPTY;
    return `{\n${rels.map((r) => `${indent}  ${key(r.name)}: ${this.table(r, `${indent}  `)};`).join("\n")}\n${indent}}`;
  }

  /** Result columns of a function: its OUT / TABLE parameters, else the columns of the composite it returns. */
  private resultColumns(fn: FunctionRow): { name: string; type: string }[] | null {
    const modes = fn.modes ?? [];
    const outs = modes
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m === "o" || m === "b" || m === "t")
      .map(({ i }) => ({ name: fn.names?.[i] ?? "", type: this.tsType(fn.types[i]) }));
    if (outs.length > 1 || (outs.length === 1 && modes.includes("t"))) return outs;
    const ret = this.cat.types.get(fn.rettype);
    if (ret?.typtype === "c" && this.schemas.includes(ret.schema)) {
      // Attributes of a composite type are nullable; a table's row keeps its NOT NULL columns.
      return this.columns(ret.relid).map((c) => {
        const t = this.tsType(c.type);
        return { name: c.name, type: c.not_null ? t : nullable(t) };
      });
    }
    return null;
  }

  private functionType(fn: FunctionRow, indent: string): string | null {
    const modes = fn.modes ?? fn.types.map(() => "i");
    const inputs = modes
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m === "i" || m === "b" || m === "v")
      .map(({ i }, pos, all) => ({
        name: fn.names?.[i] ?? "",
        type: fn.types[i],
        hasDefault: pos >= all.length - fn.nargdefaults,
      }));
    const unnamed = inputs.filter((p) => p.name === "");
    let args: string;
    if (inputs.length === 0) {
      args = "never";
    } else if (unnamed.length === 0) {
      // SQL cannot declare an argument NOT NULL: every argument accepts null.
      args = this.objectType(
        inputs.map((p) => ({ name: p.name, type: nullable(this.tsType(p.type)), optional: p.hasDefault })),
        `${indent}  `,
      );
    } else if (inputs.length === 1 && ["json", "jsonb"].includes(this.cat.types.get(inputs[0].type)?.name ?? "")) {
      // PostgREST passes a whole POST body to a single unnamed json/jsonb parameter.
      args = `{ "": Json }`;
    } else {
      return null; // unnamed parameters cannot be passed by name over RPC
    }
    let returns: string;
    const cols = this.resultColumns(fn);
    if (cols) {
      const row = this.objectType(cols, `${indent}  `);
      returns = fn.retset ? `${row}[]` : row;
    } else {
      const t = this.tsType(fn.rettype);
      returns = fn.retset ? (t.includes(" ") ? `(${t})[]` : `${t}[]`) : t;
    }
    return `{\n${indent}  Args: ${args};\n${indent}  Returns: ${returns};\n${indent}}`;
  }

  private functionGroup(schema: string, indent: string): string {
    const groups = new Map<string, string[]>();
    const fns = this.cat.functions
      .filter((f) => f.schema === schema)
      .sort((a, b) => compare(a.name, b.name) || compare(a.identity_args, b.identity_args));
    for (const fn of fns) {
      const t = this.functionType(fn, `${indent}  `);
      if (t) groups.set(fn.name, [...(groups.get(fn.name) ?? []), t]);
    }
    if (groups.size === 0) return EMPTY;
    // Overloads (the migrations allow none) become a union, as supabase-js expects.
    const entries = [...groups].map(([name, ts]) => `${indent}  ${key(name)}:${ts.length > 1 ? "\n" + ts.map((t) => `${indent}    | ${t}`).join("\n") : ` ${ts[0]}`};`);
    return `{\n${entries.join("\n")}\n${indent}}`;
  }

  private enumGroup(schema: string, indent: string): string {
    const enums = [...this.cat.types.values()].filter((t) => t.schema === schema && t.typtype === "e").sort(byName);
    if (enums.length === 0) return EMPTY;
    const lines = enums.map((e) => `${indent}  ${key(e.name)}: ${(this.cat.enumLabels.get(e.oid) ?? []).map((l) => JSON.stringify(l)).join(" | ")};`);
    return `{\n${lines.join("\n")}\n${indent}}`;
  }

  private compositeGroup(schema: string, indent: string): string {
    const comps = this.cat.relations.filter((r) => r.schema === schema && r.relkind === "c").sort(byName);
    if (comps.length === 0) return EMPTY;
    const lines = comps.map((c) => {
      const fields = this.columns(c.oid).map((a) => ({ name: a.name, type: nullable(this.tsType(a.type)) }));
      return `${indent}  ${key(c.name)}: ${this.objectType(fields, `${indent}  `)};`;
    });
    return `{\n${lines.join("\n")}\n${indent}}`;
  }

  schema(schema: string): string {
    const i = "    ";
    return [
      `  ${key(schema)}: {`,
      `${i}Tables: ${this.relationGroup(schema, ["r", "p"], i)};`,
      `${i}Views: ${this.relationGroup(schema, ["v", "m"], i)};`,
      `${i}Functions: ${this.functionGroup(schema, i)};`,
      `${i}Enums: ${this.enumGroup(schema, i)};`,
      `${i}CompositeTypes: ${this.compositeGroup(schema, i)};`,
      `  };`,
    ].join("\n");
  }
}

const HEADER = `/**
 * GENERATED by server/cli/db-types.ts (\`npm run db:types\`) from the migrated database: do not edit by hand.
 * tests/db/db-types.test.ts fails when this file is stale.
 *
 * The shape supabase-js's generics expect (\`SupabaseClient<Database>\` types every \`.rpc(name, args)\`). Conventions,
 * as the Supabase generator's: bigint and numeric are numbers, json/jsonb is \`Json\`, dates and times are ISO strings,
 * \`void\` is undefined; columns of \`returns table(...)\` are typed as declared, attributes of composite types and
 * nullable table columns carry \`| null\`. Every function argument accepts null (SQL cannot refuse it by declaration);
 * an argument with a default is optional. Partitions, trigger functions and extension functions are left out.
 */
`;

const FOOTER = `
type PublicSchema = Database["public"];

/** The row type of a table in the public schema. */
export type Tables<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Row"];

/** The arguments of an RPC function in the public schema. */
export type FunctionArgs<F extends keyof PublicSchema["Functions"]> = PublicSchema["Functions"][F]["Args"];

/** What an RPC function in the public schema returns (a set as an array). */
export type FunctionReturns<F extends keyof PublicSchema["Functions"]> = PublicSchema["Functions"][F]["Returns"];

/** A composite type in the public schema. */
export type CompositeTypes<T extends keyof PublicSchema["CompositeTypes"]> = PublicSchema["CompositeTypes"][T];
`;

/** The text of lib/supabase/database.types.ts for the database behind `db` (deterministic: everything is sorted). */
export async function generateDatabaseTypes(db: Queryable, schemas: string[] = ["public"]): Promise<string> {
  const sorted = [...new Set(schemas)].sort(compare);
  if (!sorted.includes("public")) throw new Error("the public schema must be among the generated schemas");
  const emitter = new Emitter(await readCatalog(db, sorted), sorted);
  const json = `export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];\n`;
  const database = `export type Database = {\n${sorted.map((s) => emitter.schema(s)).join("\n")}\n};\n`;
  return `${HEADER}\n${json}\n${database}${FOOTER}`;
}

async function main() {
  const { values } = parseArgs({
    options: {
      schema: { type: "string", multiple: true },
      stdout: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log("usage: npm run db:types -- [--schema public ...] [--stdout]   (reads DATABASE_URL or .env.local)");
    return;
  }
  const pool = new pg.Pool({ connectionString: databaseUrlFromEnv(), max: 1 });
  try {
    const text = await generateDatabaseTypes(pool, values.schema ?? ["public"]);
    if (values.stdout) {
      process.stdout.write(text);
    } else {
      const target = path.resolve(__dirname, "..", "..", DATABASE_TYPES_PATH);
      writeFileSync(target, text);
      console.log(`wrote ${DATABASE_TYPES_PATH}`);
    }
  } finally {
    await pool.end();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
