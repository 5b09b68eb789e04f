import { memo, useDeferredValue, useMemo, useState } from 'react'
import { fmtCount, fmtCounted } from '../format'

interface Props {
  names: readonly string[]
  count: number
}

const SHOWN = 200

/** Reference count and a searchable list (substring, case-insensitive; at most 200 rows shown). */
export const RefList = memo(function RefList({ names, count }: Props) {
  const [query, setQuery] = useState('')
  const deferred = useDeferredValue(query)
  const matches = useMemo(() => {
    const q = deferred.trim().toLowerCase()
    const out: number[] = []
    let total = 0
    names.forEach((name, i) => {
      if (q === '' || name.toLowerCase().includes(q)) {
        if (out.length < SHOWN) out.push(i)
        total++
      }
    })
    return { shown: out, total }
  }, [names, deferred])
  return (
    <details className="panel-section refs">
      <summary>
        <h3>
          References{' '}
          <span className="count" data-testid="ref-count">
            {fmtCount(count)}
          </span>
        </h3>
      </summary>
      <input
        type="search"
        className="input"
        placeholder="Search reference names"
        aria-label="Search reference names"
        data-testid="ref-search"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value)
        }}
      />
      <div className="hint">
        {matches.total === count && deferred === ''
          ? fmtCounted(count, 'reference')
          : `${fmtCount(matches.total)} of ${fmtCount(count)} ${matches.total === 1 ? 'matches' : 'match'}`}
        {matches.total > SHOWN && ` (first ${String(SHOWN)} shown)`}
      </div>
      {/* Focusable, so the keyboard can scroll the list (a scroll region without focusable content). */}
      <ol className="ref-list" data-testid="ref-list" tabIndex={0} aria-label="Reference names">
        {matches.shown.map((i) => (
          <li key={i}>
            <span className="ref-id">{i}</span>
            <span className="mono">{names[i]}</span>
          </li>
        ))}
      </ol>
    </details>
  )
})
