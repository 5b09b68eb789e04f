import { memo } from 'react'
import { fileTagPlaceholderField, placeholderReason, valueText } from '../../rad/text/display'
import type { Prelude, TagValue } from '../../rad/types'
import { fmtCount } from '../format'

const MAX_ELEMENTS = 12

function shortValue(name: string, value: TagValue | undefined): string {
  if (value === undefined) return '—'
  if (placeholderTitle(name, value) !== undefined) return '—'
  if (Array.isArray(value) && value.length > MAX_ELEMENTS) {
    const head = value.slice(0, MAX_ELEMENTS).map(valueText).join(', ')
    return `[${head}, …] (${fmtCount(value.length)} values)`
  }
  return valueText(value)
}

/** Why a file tag's value is a "not available" placeholder (e.g. `rlen` 0, docs/format.md §7.2). */
function placeholderTitle(name: string, value: TagValue | undefined): string | undefined {
  const field = fileTagPlaceholderField(name)
  if (field === undefined || (typeof value !== 'number' && typeof value !== 'bigint')) return undefined
  return placeholderReason(field, value)
}

/** The file-level tag values (long arrays abbreviated). */
export const FileTagValues = memo(function FileTagValues({ prelude }: { prelude: Prelude }) {
  if (prelude.fileTags.length === 0) return null
  return (
    <details className="panel-section" open data-testid="file-tag-values">
      <summary>
        <h3>File tag values</h3>
      </summary>
      <dl className="kvs">
        {prelude.fileTags.map((tag, i) => (
          <div className="kv" key={i}>
            <dt className="mono">{tag.name}</dt>
            <dd className="mono" title={placeholderTitle(tag.name, prelude.fileTagValues[i])}>
              {shortValue(tag.name, prelude.fileTagValues[i])}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  )
})
