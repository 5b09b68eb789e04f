import { useState } from 'react'

interface Props {
  onOpen: (url: string) => void
}

/**
 * "Open URL…": a web address typed or pasted, opened on Enter. The file is
 * read by HTTP Range from its own server (HttpSource); nothing else is sent.
 */
export function OpenUrl({ onOpen }: Props) {
  const [value, setValue] = useState('')
  const submit = (ev: { preventDefault: () => void }) => {
    ev.preventDefault()
    if (value.trim() !== '') onOpen(value.trim())
  }
  return (
    <form className="open-url" aria-label="Open a file by its web address" onSubmit={submit}>
      <label htmlFor="open-url-input" className="visually-hidden">
        Open URL (a .rad file on a web server; Enter opens it)
      </label>
      <input
        id="open-url-input"
        data-testid="open-url"
        type="url"
        inputMode="url"
        enterKeyHint="go"
        autoComplete="url"
        spellCheck={false}
        placeholder="Open URL…"
        value={value}
        onChange={(ev) => {
          setValue(ev.target.value)
        }}
      />
    </form>
  )
}
