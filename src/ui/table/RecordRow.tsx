import { memo } from 'react'
import { alignmentView, mappingTypeName, recordView, refLabel } from '../../rad/text/display'
import type { Semantics } from '../../rad/prelude/semantics'
import type { ChunkColumns, Prelude } from '../../rad/types'
import { fmtCount } from '../format'
import { orientationTitle } from '../glossary'
import { SEQ_FIT } from './tableColumns'
import type { HiddenCells } from './tableColumns'
import { useRowClick } from './useRowClick'

interface Props {
  record: number
  /** The row's id, named by the table's aria-activedescendant when the cursor is here. */
  id: string
  /** aria-rowindex (tableAria.ts). */
  rowIndex: number
  chunk: number
  /** Record number inside its chunk. */
  recordInChunk: number
  cols: ChunkColumns | undefined
  error: Error | undefined
  expanded: boolean
  /** Whether expanding shows a row of read tags (tableColumns.ts `tagRow`): a record without alignments expands too. */
  tagRow: boolean
  /** The optional cells left out: their columns do not fit the table (tableColumns.ts). */
  hidden: HiddenCells
  active: boolean
  top: number
  height: number
  prelude: Prelude
  semantics: Semantics
  onClick: (record: number) => void
}

/** Sequences of a known length up to SEQ_FIT fit their column (tableColumns.ts); others may need clipping. */
function seqClass(len: number): string {
  return len > 0 && len <= SEQ_FIT ? 'cell seq' : 'cell seq clip'
}

/**
 * The first alignment, flat in its cell (orientation badge, reference name, "+N more"): rows are
 * created dozens per frame while a table scrolls fast, and every element and clipping box costs.
 */
function Preview({
  cols,
  recordInChunk,
  prelude,
  semantics,
  naln,
  readType,
}: {
  cols: ChunkColumns
  recordInChunk: number
  prelude: Prelude
  semantics: Semantics
  naln: number
  readType: number | undefined
}) {
  if (naln === 0) {
    return (
      <span role="gridcell" className="cell muted">
        no alignments
      </span>
    )
  }
  const first = alignmentView(cols, cols.alnStart[recordInChunk] ?? 0, prelude, semantics, readType)
  return (
    <span role="gridcell" className="cell preview" title={first.refName}>
      {first.ori !== undefined && (
        <span className={`ori ori-${first.ori}`} title={orientationTitle(first.ori)}>
          {first.ori}
        </span>
      )}
      {refLabel(first.refName).short}
      {naln > 1 && <span className="more">+{naln - 1}</span>}
    </span>
  )
}

/**
 * One read record: number, chunk, alignment count, barcodes and UMI as nucleotides, other read
 * tags. A treegrid row of level 1 whose alignment rows (level 2) show when it is expanded; the
 * caret is hidden from assistive technology, which hears aria-expanded instead.
 */
export const RecordRow = memo(function RecordRow(props: Props) {
  const { record, id, rowIndex, chunk, recordInChunk, cols, error, expanded, tagRow, active, top, height } = props
  const { prelude, semantics, hidden } = props
  const view = cols ? recordView(cols, recordInChunk, prelude, semantics) : undefined
  const expandable = view !== undefined && (view.naln > 0 || tagRow)
  const click = useRowClick(() => {
    props.onClick(record)
  })
  const className = `row record-row${active ? ' active' : ''}${expanded ? ' expanded' : ''}${view ? '' : ' pending'}`
  return (
    <div
      role="row"
      id={id}
      aria-level={1}
      aria-rowindex={rowIndex}
      aria-expanded={expandable ? expanded : undefined}
      aria-selected={active}
      data-testid="record-row"
      data-record={record}
      className={className}
      style={{ top, height }}
      onMouseDown={click.onMouseDown}
      onClick={click.onClick}
      onDoubleClick={click.onDoubleClick}
    >
      <span className="caret" aria-hidden="true">
        {expandable ? (expanded ? '▾' : '▸') : ''}
      </span>
      <span role="gridcell" className="cell num">
        {fmtCount(record)}
      </span>
      {!hidden.chunk && (
        <span role="gridcell" className="cell num muted">
          {fmtCount(chunk)}
        </span>
      )}
      {view ? (
        <>
          <span role="gridcell" className="cell num">
            {view.naln}
          </span>
          {view.barcodes.map((b, i) => (
            <span
              key={i}
              role="gridcell"
              className={seqClass(semantics.barcodes[i]?.len ?? 0)}
              title="Double-click to copy"
            >
              {b}
            </span>
          ))}
          {view.umi !== undefined && (
            <span role="gridcell" className={seqClass(semantics.umi?.len ?? 0)}>
              {view.umi}
            </span>
          )}
          {semantics.mappingType?.level === 'read' && !hidden.mapping && (
            <span role="gridcell" className="cell">
              {mappingTypeName(semantics, view.mappingType)}
            </span>
          )}
          {view.other.map(([name, text], i) =>
            hidden.other[i] ? null : (
              <span key={name} role="gridcell" className="cell clip mono" title={text}>
                {text}
              </span>
            ),
          )}
          {cols && (
            <Preview
              cols={cols}
              recordInChunk={recordInChunk}
              prelude={prelude}
              semantics={semantics}
              naln={view.naln}
              readType={view.mappingType}
            />
          )}
        </>
      ) : (
        <span role="gridcell" className={`cell clip span-rest${error ? ' row-error' : ' muted'}`}>
          {error ? `chunk ${fmtCount(chunk)} could not be decoded: ${error.message}` : 'decoding…'}
        </span>
      )}
    </div>
  )
})
