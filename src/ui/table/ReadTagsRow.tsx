import { memo } from 'react'
import { recordView } from '../../rad/text/display'
import type { SubRowPlace } from './AlignmentRow'
import { readTagFields } from './readTags'

interface Props extends SubRowPlace {
  /** The read tag this row shows (one the table's width leaves no column for). */
  tag: string
}

/**
 * A read-level tag of an expanded record whose column a narrow table dropped (tableColumns.ts
 * `hiddenTags`), name and value, one per row above the alignment rows: every tag stays visible
 * whatever the width. A treegrid row of level 2, like the alignment rows.
 */
export const ReadTagsRow = memo(function ReadTagsRow(props: Props) {
  const { record, tag, rowIndex, recordInChunk, cols, top, height, prelude, semantics } = props
  const text = cols
    ? readTagFields(recordView(cols, recordInChunk, prelude, semantics), prelude, semantics).find(
        ([name]) => name === tag,
      )?.[1]
    : undefined
  return (
    <div
      role="row"
      aria-level={2}
      aria-rowindex={rowIndex}
      className={`row alignment-row read-tag-row${cols ? '' : ' pending'}`}
      data-testid="read-tag-row"
      data-record={record}
      data-tag={tag}
      style={{ top, height }}
    >
      <span role="gridcell" className="aln-index">
        tag
      </span>
      <span role="gridcell" className="field" title={`Read-level tag ${tag}`}>
        <span className="field-label">{tag}</span>{' '}
        <span className={`mono${text === undefined ? ' muted' : ''}`}>{text ?? 'decoding…'}</span>
      </span>
    </div>
  )
})
