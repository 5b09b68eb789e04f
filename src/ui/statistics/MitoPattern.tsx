import { useId, useState } from 'react'
import type { SubmitEvent } from 'react'
import { DEFAULT_MITO } from '../../rad/cells'

interface Props {
  /** The pattern the cells were (or are being) counted with. */
  value: string
  /** Counts the cells again with `pattern` (a valid regular expression, not empty). */
  onApply: (pattern: string) => void
}

/** Why `pattern` cannot be the mito pattern, or undefined when it can. */
function patternProblem(pattern: string): string | undefined {
  if (pattern === '') return `Give a pattern (the default is ${DEFAULT_MITO}).`
  try {
    new RegExp(pattern)
    return undefined
  } catch (e) {
    return `Not a regular expression: ${e instanceof Error ? e.message : String(e)}.`
  }
}

/**
 * The mitochondrial genes' pattern, as `rad stats --mito` takes it (docs/cells.md): a regular
 * expression on the gene names (the ids without a names file). Another species' genes (`^mt:`,
 * `^MT-`…) count again with it; the alert no-mito-genes points here.
 */
export function MitoPattern({ value, onApply }: Props) {
  const id = useId()
  const [text, setText] = useState(value)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const submit = (e: SubmitEvent<HTMLFormElement>): void => {
    e.preventDefault()
    const pattern = text.trim()
    const why = patternProblem(pattern)
    setProblem(why)
    if (why === undefined && pattern !== value) onApply(pattern)
  }
  return (
    <form className="mito-pattern" noValidate onSubmit={submit} data-testid="cells-mito">
      <label htmlFor={id}>Mito genes</label>
      <input
        id={id}
        className="mono"
        value={text}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problem !== undefined}
        aria-describedby={`${id}-hint`}
        data-testid="cells-mito-input"
        onChange={(e) => {
          setText(e.currentTarget.value)
        }}
      />
      <button type="submit" className="btn btn-small" data-testid="cells-mito-apply">
        Count again
      </button>
      <span id={`${id}-hint`} className="muted">
        a regular expression on the gene names (rad stats --mito)
      </span>
      {problem !== undefined && (
        <span className="notice notice-error" role="alert" data-testid="cells-mito-error">
          {problem}
        </span>
      )}
    </form>
  )
}
