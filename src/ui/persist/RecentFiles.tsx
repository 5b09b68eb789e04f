import { useState } from 'react'
import './session.css'
import { fileFromHandle } from './fileHandles'
import { fmtBytes, fmtCount } from '../format'
import type { RecentFile } from './persistStore'
import type { RecentFiles as Recent } from './useRecentFiles'

interface Props {
  recent: Recent
  onFile: (file: File) => void
  /** Opens the file chooser, for a file whose handle the browser could not keep. */
  onChoose: () => void
  /** Opens a URL (branch http); absent until the page can open URLs. */
  onUrl?: (url: string) => void
}

function how(entry: RecentFile, canUrl: boolean): string {
  if (entry.url) return canUrl ? 'Opens from its address' : 'Opening addresses is not available in this build'
  return entry.handle ? 'Reopens after the browser asks for permission' : 'Choose it again: the browser kept no handle'
}

/** "Recent files" on the start page (docs/links.md), and the control that clears the cached indexes. */
export function RecentFiles({ recent, onFile, onChoose, onUrl }: Props) {
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const { list, usage } = recent
  if (list.length === 0 && !usage?.count) return null

  const reopen = (entry: RecentFile) => {
    setProblem(undefined)
    if (entry.url) {
      onUrl?.(entry.url)
      return
    }
    if (!entry.handle) {
      onChoose()
      return
    }
    fileFromHandle(entry.handle).then(
      (file) => {
        if (file) onFile(file)
        else setProblem(`The browser was not allowed to read ${entry.name}.`)
      },
      (e: unknown) => {
        setProblem(`${entry.name} cannot be opened any more (${e instanceof Error ? e.message : String(e)}).`)
      },
    )
  }

  return (
    <section className="recent" aria-labelledby="recent-title" data-testid="recent-files">
      <h2 id="recent-title" className="recent-title">
        Recent files
      </h2>
      {list.length > 0 && (
        <ul className="recent-list">
          {list.map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                className="btn btn-small recent-open"
                data-testid="recent-file"
                data-id={entry.id}
                title={how(entry, onUrl !== undefined)}
                disabled={entry.url !== undefined && !onUrl}
                onClick={() => {
                  reopen(entry)
                }}
              >
                {entry.name}
              </button>{' '}
              <span className="muted">
                {entry.url ? entry.url : fmtBytes(entry.size)} · {new Date(entry.openedAt).toLocaleString()}
              </span>{' '}
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Remove ${entry.name} from recent files`}
                onClick={() => {
                  recent.forget(entry.id)
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <p className="recent-cache muted">
        {usage?.count
          ? `${fmtCount(usage.count)} file ${usage.count === 1 ? 'index' : 'indexes'} kept in this browser (${fmtBytes(usage.bytes)}), so those files reopen at once.`
          : 'No file indexes kept in this browser.'}{' '}
        <button
          type="button"
          className="btn btn-small"
          data-testid="clear-cache"
          disabled={!usage?.count}
          onClick={recent.clearIndexes}
        >
          Clear cached indexes
        </button>
      </p>
    </section>
  )
}
