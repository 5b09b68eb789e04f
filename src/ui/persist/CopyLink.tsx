import './session.css'
import { useState } from 'react'

interface Props {
  /** Brings the address up to date before it is copied. */
  beforeCopy: () => void
}

/** Copies the page address (with the view state in its hash, useDeepLink.ts) to the clipboard. */
export function CopyLink({ beforeCopy }: Props) {
  const [said, setSaid] = useState('')
  const copy = () => {
    beforeCopy()
    const address = window.location.href
    navigator.clipboard.writeText(address).then(
      () => {
        setSaid('Link copied')
      },
      (e: unknown) => {
        setSaid(
          `Could not copy the link (${e instanceof Error ? e.message : String(e)}): copy it from the address bar.`,
        )
      },
    )
  }
  return (
    <span className="copy-link">
      <button
        type="button"
        className="btn btn-small"
        data-testid="copy-link"
        title="Copy a link to this record: it reopens here for anyone opening the same file"
        onClick={copy}
      >
        Copy link
      </button>
      <span className="copy-link-said muted" role="status" data-testid="copy-link-status">
        {said}
      </span>
    </span>
  )
}
