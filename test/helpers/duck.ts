/**
 * Reads Parquet with a real engine, DuckDB (`@duckdb/node-api`, a dev
 * dependency, ADR 0012): rows as JSON-friendly objects (BIGINT and wider as
 * decimal strings, lists and structs as arrays and objects).
 */
import { DuckDBInstance } from '@duckdb/node-api'
import type { DuckDBConnection } from '@duckdb/node-api'

export type DuckRow = Record<string, unknown>

let connection: Promise<DuckDBConnection> | undefined

function connect(): Promise<DuckDBConnection> {
  connection ??= DuckDBInstance.create(':memory:').then((db) => db.connect())
  return connection
}

/** The rows of a query. */
export async function duckQuery(sql: string): Promise<DuckRow[]> {
  const reader = await (await connect()).runAndReadAll(sql)
  return reader.getRowObjectsJson()
}

/** A path as a SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}

/** Every row of a Parquet file, in file order. */
export function readParquet(path: string): Promise<DuckRow[]> {
  return duckQuery(`select * from read_parquet(${sqlString(path)})`)
}

/** Column names and DuckDB types of a Parquet file. */
export async function parquetColumns(path: string): Promise<{ name: string; type: string }[]> {
  const rows = await duckQuery(`describe select * from read_parquet(${sqlString(path)})`)
  return rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }))
}

/** The key-value metadata of a Parquet file. */
export async function parquetMetadata(path: string): Promise<Record<string, string>> {
  const rows = await duckQuery(`select decode(key) k, decode(value) v from parquet_kv_metadata(${sqlString(path)})`)
  return Object.fromEntries(rows.map((r) => [String(r.k), String(r.v)]))
}
