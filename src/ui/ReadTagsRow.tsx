import { memo } from 'react'
import { recordView } from '../rad/display'
import type { Semantics } from '../rad/semantics'
import type { ChunkColumns, Prelude } from '../rad/types'
import { readTagFields } from './readTags'

interface Props {
  record: number
  /** aria-rowindex (tableAria.ts). */
  rowIndex: number
  recordInChunk: number
  cols: ChunkColumns | undefined
  top: number
  height: number
  prelude: Prelude
  semantics: Semantics
}

/**
 * The first row below an expanded record: every read-level tag, name and value, so the tags a
 * narrow table has no column for stay visible (tableColumns.ts `tagRow`). A treegrid row of
 * level 2, like the alignment rows below it.
 */
export const ReadTagsRow = memo(function ReadTagsRow(props: Props) {
  const { record, rowIndex, recordInChunk, cols, top, height, prelude, semantics } = props
  const fields = cols ? readTagFields(recordView(cols, recordInChunk, prelude, semantics), prelude, semantics) : []
  return (
    <div
      role="row"
      aria-level={2}
      aria-rowindex={rowIndex}
      className={`row alignment-row read-tags-row${cols ? '' : ' pending'}`}
      data-testid="read-tags-row"
      data-record={record}
      style={{ top, height }}
    >
      <span role="gridcell" className="aln-index">
        tags
      </span>
      {cols ? (
        fields.map(([name, text]) => (
          <span key={name} role="gridcell" className="field" title={`Read-level tag ${name}`}>
            <span className="field-label">{name}</span> <span className="mono">{text}</span>
          </span>
        ))
      ) : (
        <span role="gridcell" className="muted">
          decoding…
        </span>
      )}
    </div>
  )
})
