/**
 * One row group of the export written into hyparquet-writer's ParquetWriter
 * (ADR 0012). Columns whose pages this project encoded (rad/parquet/parquetDictionary.ts:
 * dictionaries built from integer keys, UMIs as PLAIN bytes) and the
 * delta-encoded record and chunk numbers get their page headers and column
 * metadata here; every other column goes through the writer's own
 * `writeColumn`. The row group's metadata joins the writer's list, so its
 * `finish()` writes the footer as for row groups it wrote itself.
 */
import type { ParquetWriter } from 'hyparquet-writer'
import { ByteWriter } from 'hyparquet-writer'
import { writeColumn } from 'hyparquet-writer/src/column.js'
import { writePageHeader } from 'hyparquet-writer/src/datapage.js'
import { deltaBinaryPack } from 'hyparquet-writer/src/delta.js'
import { encodeNestedValues } from 'hyparquet-writer/src/dremel.js'
import { schemaPathResolver } from 'hyparquet-writer/src/schema.js'
import type { EncodedPages } from '../rad/parquet/parquetDictionary'
import type { ParquetEncoding } from '../rad/parquet/parquetSchema'
import type { ParquetData } from '../rad/parquet/parquetValues'

type RowGroup = ParquetWriter['row_groups'][number]
type ColumnChunk = RowGroup['columns'][number]
type PageIndexes = ParquetWriter['pendingIndexes'][number]
type SchemaTree = ReturnType<ReturnType<typeof schemaPathResolver>>[number]
type Codec = ParquetWriter['codec']
type SchemaElement = SchemaTree['element']

/** A column of the row group: its values, or its pages encoded here. */
export interface RowGroupColumn {
  name: string
  data: ParquetData
  encoding?: ParquetEncoding
}

/** The writer's page size for the columns it writes (its default). */
const PAGE_SIZE = 1 << 20

function isEncoded(data: ParquetData): data is EncodedPages {
  return !Array.isArray(data) && !ArrayBuffer.isView(data)
}

/** Writes encoded page bodies with their headers; returns the column chunk's metadata. */
function writeEncoded(parquet: ParquetWriter, element: SchemaElement, pages: EncodedPages): ColumnChunk {
  const writer = parquet.writer
  const { name, type } = element
  if (!type) throw new Error(`internal: no Parquet type for column ${name}`)
  const start = writer.offset
  let uncompressed = 0
  let dictionaryOffset: bigint | undefined
  const encodings: EncodedPages['encoding'][] = []
  if (pages.dictionary) {
    const { bytes, count } = pages.dictionary
    dictionaryOffset = BigInt(writer.offset)
    writePageHeader(writer, {
      type: 'DICTIONARY_PAGE',
      uncompressed_page_size: bytes.length,
      compressed_page_size: bytes.length,
      dictionary_page_header: { num_values: count, encoding: 'PLAIN' },
    })
    writer.appendBytes(bytes)
    uncompressed += writer.offset - Number(dictionaryOffset)
    encodings.push('PLAIN')
  }
  encodings.push(pages.encoding)
  const codec: Codec = pages.compress ? parquet.codec : 'UNCOMPRESSED'
  const compressor = codec === 'UNCOMPRESSED' ? undefined : parquet.compressors[codec]
  const body = compressor ? compressor(pages.data) : pages.data
  const dataOffset = writer.offset
  writePageHeader(writer, {
    type: 'DATA_PAGE_V2',
    uncompressed_page_size: pages.data.length,
    compressed_page_size: body.length,
    data_page_header_v2: {
      num_values: pages.rows,
      num_nulls: 0,
      num_rows: pages.rows,
      encoding: pages.encoding,
      definition_levels_byte_length: 0,
      repetition_levels_byte_length: 0,
      is_compressed: codec !== 'UNCOMPRESSED',
    },
  })
  uncompressed += writer.offset - dataOffset + pages.data.length
  writer.appendBytes(body)
  return {
    meta_data: {
      type,
      encodings,
      path_in_schema: [name],
      codec,
      num_values: BigInt(pages.rows),
      total_compressed_size: BigInt(writer.offset - start),
      total_uncompressed_size: BigInt(uncompressed),
      data_page_offset: BigInt(dataOffset),
      dictionary_page_offset: dictionaryOffset,
    },
    file_offset: BigInt(start),
  }
}

/** Record and chunk numbers held as an Int32Array, delta-encoded by the writer's encoder without its checks. */
function deltaPages(element: SchemaElement, values: Int32Array): EncodedPages {
  const type = element.type === 'INT64' ? 'INT64' : 'INT32'
  const page = new ByteWriter(values.length + 1024)
  deltaBinaryPack(page, values, type)
  return { encoding: 'DELTA_BINARY_PACKED', rows: values.length, data: page.getBytes(), compress: false }
}

/** The schema paths of a column's leaves (one for a flat column; one per struct field of a list). */
function leaves(path: SchemaTree[]): SchemaTree[][] {
  const node = path[path.length - 1]
  if (!node?.children.length) return [path]
  return node.children.flatMap((child) => leaves([...path, child]))
}

/** A column the writer encodes itself: Snappy, unless an encoding was asked for (ADR 0012). */
function writeByWriter(parquet: ParquetWriter, column: RowGroupColumn, path: SchemaTree[]): PageIndexes[] {
  const codec: Codec = column.encoding && column.encoding !== 'PLAIN' ? 'UNCOMPRESSED' : parquet.codec
  return leaves(path).map((leaf) => {
    const schemaPath = leaf.map((node) => node.element)
    const element = schemaPath[schemaPath.length - 1]
    if (!element) throw new Error(`internal: empty schema path for column ${column.name}`)
    return writeColumn({
      writer: parquet.writer,
      column: {
        columnName: schemaPath
          .slice(1)
          .map((s) => s.name)
          .join('.'),
        element,
        schemaPath,
        codec,
        compressors: parquet.compressors,
        stats: parquet.statistics,
        pageSize: PAGE_SIZE,
        columnIndex: false,
        offsetIndex: true,
        encoding: column.encoding,
      },
      pageData: encodeNestedValues(leaf, column.data as Exclude<ParquetData, EncodedPages>),
    })
  })
}

/** Writes one row group of `rows` rows and hands its bytes to the writer's sink (its `flush`). */
export function writeRowGroup(
  parquet: ParquetWriter,
  columns: readonly RowGroupColumn[],
  rows: number,
): void | Promise<void> {
  const start = parquet.writer.offset
  const resolve = schemaPathResolver(parquet.schema)
  const chunks: ColumnChunk[] = []
  for (const column of columns) {
    const { name, data } = column
    const path = resolve([name])
    const element = path[path.length - 1]?.element
    if (!element) throw new Error(`internal: column ${name} is not in the schema`)
    let written: PageIndexes[]
    if (isEncoded(data)) written = [{ chunk: writeEncoded(parquet, element, data) }]
    else if (data instanceof Int32Array && column.encoding === 'DELTA_BINARY_PACKED') {
      written = [{ chunk: writeEncoded(parquet, element, deltaPages(element, data)) }]
    } else written = writeByWriter(parquet, column, path)
    for (const w of written) {
      chunks.push(w.chunk)
      parquet.pendingIndexes.push(w)
    }
  }
  let bytes = 0n
  for (const c of chunks) bytes += c.meta_data?.total_uncompressed_size ?? 0n
  parquet.row_groups.push({
    columns: chunks,
    total_byte_size: bytes,
    num_rows: BigInt(rows),
    total_compressed_size: BigInt(parquet.writer.offset - start),
  })
  parquet.num_rows += BigInt(rows)
  return parquet.writer.flush?.()
}
