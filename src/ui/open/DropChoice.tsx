import type { DropPlan, DroppedFile, Sidecar } from './dropPlan'
import { runFileRole } from './dropPlan'
import { fmtBytes } from '../format'

interface Props {
  plan: DropPlan
  sidecars: readonly Sidecar[]
  /** Path of the file open now, if it came from this drop. */
  opened: string | undefined
  onOpen: (file: DroppedFile) => void
}

function heading(plan: DropPlan, opened: string | undefined): string {
  if (plan.study.length > 1) {
    const what = plan.kind === 'folder' ? `a folder, ${plan.name}` : plan.name
    const study = `${String(plan.study.length)} RAD files, side by side below`
    return opened === undefined ? `You dropped ${what}: ${study}.` : `You dropped ${what}: ${study}; opened ${opened}.`
  }
  if (plan.kind === 'files') {
    return `You dropped ${plan.name}; ${opened === undefined ? 'choose one to open' : `opened ${opened}`}.`
  }
  const what = `You dropped a folder, ${plan.name}`
  if (plan.candidates.length === 0) return `${what}. It holds no RAD file (names ending in .rad or .rad.sz).`
  if (opened !== undefined) return `${what}; opened ${opened}.`
  return `${what}. It holds ${String(plan.candidates.length)} RAD files: choose one to open.`
}

function RunFileRole({ path }: { path: string }) {
  const role = runFileRole(path)
  return role ? <span className="muted">— {role}</span> : null
}

/** A folder or several files were dropped: say so, offer the RAD files, show the JSON sidecars. */
export function DropChoice({ plan, sidecars, opened, onOpen }: Props) {
  return (
    <section className="drop-choice" data-testid="drop-choice" data-kind={plan.kind} aria-label="Dropped files">
      <p className="drop-choice-head">{heading(plan, opened)}</p>
      {plan.candidates.length > 1 && (
        <ul className="drop-candidates">
          {plan.candidates.map((c) => (
            <li key={c.path}>
              <button
                type="button"
                className="btn btn-small"
                data-testid="drop-candidate"
                data-path={c.path}
                aria-pressed={c.path === opened}
                onClick={() => {
                  onOpen(c)
                }}
              >
                {c.path}
              </button>{' '}
              <span className="muted">{fmtBytes(c.file.size)}</span>
            </li>
          ))}
        </ul>
      )}
      {sidecars.map((s) => (
        <details key={s.path} className="sidecar" data-testid="sidecar" data-path={s.path}>
          <summary>
            <span className="mono">{s.path}</span> <RunFileRole path={s.path} />
          </summary>
          <pre className="mono">{s.text}</pre>
        </details>
      ))}
      {plan.skipped.map((f) => (
        <p key={f.path} className="notice notice-warning" role="status" data-testid="drop-skipped" data-path={f.path}>
          <span className="mono">{f.path}</span>: {f.why}
        </p>
      ))}
      {plan.runFiles.length > 0 && (
        <ul className="run-files">
          {plan.runFiles.map((f) => (
            <li key={f.path} data-testid="run-file" data-path={f.path}>
              <span className="mono">{f.path}</span> <RunFileRole path={f.path} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
