import type { ChangeEvent, RefObject } from 'react'
import { OpenUrl } from '../open/OpenUrl'
import { ThemeToggle } from './ThemeToggle'

interface Props {
  onFile: (file: File) => void
  /** Several files chosen at once (a study, or a RAD file with its annotations). */
  onFiles: (files: File[]) => void
  onSample: () => void
  onUrl: (url: string) => void
  /** The file input, shared with the idle page's drop area (a click there opens the same chooser). */
  input: RefObject<HTMLInputElement | null>
  helpOpen: boolean
  onHelp: () => void
}

/** Title, "Open file" (a hidden file input), "Try a sample" and the privacy note. */
export function TopBar({ onFile, onFiles, onSample, onUrl, input, helpOpen, onHelp }: Props) {
  const onChange = (ev: ChangeEvent<HTMLInputElement>) => {
    const files = [...(ev.target.files ?? [])]
    // Reset so choosing the same file again still fires a change.
    ev.target.value = ''
    if (files.length > 1) onFiles(files)
    else if (files[0]) onFile(files[0])
  }
  return (
    <header className="topbar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          RAD
        </span>
        <h1>RAD Viewer</h1>
      </div>
      <div className="topbar-actions">
        <button type="button" className="btn btn-primary" onClick={() => input.current?.click()}>
          Open file…
        </button>
        <OpenUrl onOpen={onUrl} />
        <button type="button" className="btn" onClick={onSample}>
          Try a sample
        </button>
        <button
          type="button"
          className="btn"
          data-testid="help-toggle"
          aria-expanded={helpOpen}
          aria-controls={helpOpen ? 'help-panel' : undefined}
          aria-keyshortcuts="?"
          title="Help (?)"
          onClick={onHelp}
        >
          What am I looking at?
        </button>
        <input
          ref={input}
          type="file"
          multiple
          data-testid="file-input"
          className="visually-hidden"
          // Reached through "Open file…": hidden from assistive technology too, not a second button.
          tabIndex={-1}
          aria-hidden="true"
          onChange={onChange}
        />
      </div>
      <p className="privacy" data-testid="privacy-note">
        <svg className="lock" viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
          <path
            fill="currentColor"
            d="M4 7V5a4 4 0 1 1 8 0v2h.5A1.5 1.5 0 0 1 14 8.5v5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 13.5v-5A1.5 1.5 0 0 1 3.5 7H4Zm1.5 0h5V5a2.5 2.5 0 0 0-5 0v2Z"
          />
        </svg>{' '}
        <span>Read in your browser: nothing is uploaded.</span>
      </p>
      <ThemeToggle />
    </header>
  )
}
