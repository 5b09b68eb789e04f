import { useMemo, useState } from 'react'
import type { CellRows } from '../rad/cells'
import { fmtCount } from './format'

type Column = 'barcode' | 'reads' | 'umis' | 'genes' | 'mito'
const COLUMNS: readonly { key: Column; label: string }[] = [
  { key: 'barcode', label: 'Barcode' },
  { key: 'reads', label: 'Reads' },
  { key: 'umis', label: 'UMIs' },
  { key: 'genes', label: 'Genes' },
  { key: 'mito', label: 'Mito' },
]
/** Rows drawn at once; Save TSV has every cell. */
export const SHOWN_CELLS = 300

function sortedOrder(rows: CellRows, by: Column, descending: boolean): number[] {
  const order = Array.from(rows.barcodes.keys())
  const sign = descending ? -1 : 1
  if (by === 'barcode') {
    order.sort((a, b) => sign * (rows.barcodes[a]! < rows.barcodes[b]! ? -1 : 1))
  } else {
    const v = rows[by]
    order.sort((a, b) => sign * (v[a]! - v[b]!) || a - b)
  }
  return order
}

/** The cells, sortable by any column; a click on a barcode filters the table to that cell's records. */
export function CellsTable({ rows, onPick }: { rows: CellRows; onPick: (barcode: string) => void }) {
  const [by, setBy] = useState<Column>('reads')
  const [descending, setDescending] = useState(true)
  const order = useMemo(() => sortedOrder(rows, by, descending), [rows, by, descending])
  const sortBy = (key: Column): void => {
    if (key === by) setDescending(!descending)
    else {
      setBy(key)
      setDescending(key !== 'barcode')
    }
  }
  return (
    <div className="cells-table-box">
      <table className="cells-table" data-testid="cells-table">
        <caption>
          {order.length > SHOWN_CELLS
            ? `The first ${fmtCount(SHOWN_CELLS)} of ${fmtCount(order.length)} cells; Save cells TSV has them all.`
            : `${fmtCount(order.length)} cells.`}{' '}
          A barcode shows that cell's records.
        </caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                aria-sort={c.key === by ? (descending ? 'descending' : 'ascending') : undefined}
              >
                <button
                  type="button"
                  onClick={() => {
                    sortBy(c.key)
                  }}
                  data-testid={`cells-sort-${c.key}`}
                >
                  {c.label}
                  {c.key === by ? (descending ? ' ▾' : ' ▴') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {order.slice(0, SHOWN_CELLS).map((i) => (
            <tr key={rows.barcodes[i]}>
              <td>
                <button
                  type="button"
                  className="seq"
                  data-testid="cell-barcode"
                  onClick={() => {
                    onPick(rows.barcodes[i]!)
                  }}
                >
                  {rows.barcodes[i]}
                </button>
              </td>
              <td>{fmtCount(rows.reads[i]!)}</td>
              <td>{fmtCount(rows.umis[i]!)}</td>
              <td>{fmtCount(rows.genes[i]!)}</td>
              <td>{(100 * rows.mito[i]!).toFixed(1)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
