import { Component } from 'react'
import type { ErrorInfo, ReactNode } from 'react'

interface Props {
  /** What the boundary holds, as the message names it ("this file's view", "the statistics"). */
  what: string
  children: ReactNode
}

interface State {
  error: Error | undefined
}

/**
 * No exception empties the page (docs/sidecar.md): a component that throws while it renders is
 * replaced by one line saying so, with the error's message, and everything outside this
 * boundary stays as it was. React needs a class for this (getDerivedStateFromError).
 * "Try again" renders the children anew; opening another file mounts a fresh boundary (keyed).
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: undefined }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // For whoever reads the console: the component stack the message leaves out.
    console.error(`RAD Viewer: ${this.props.what} failed`, error, info.componentStack)
  }

  override render(): ReactNode {
    const { error } = this.state
    if (!error) return this.props.children
    return (
      <div className="notice notice-error render-failed" role="alert" data-testid="render-failed">
        Something went wrong while showing {this.props.what}: {error.message}. The rest of the page still works.{' '}
        <button
          type="button"
          className="btn btn-small"
          data-testid="render-retry"
          onClick={() => {
            this.setState({ error: undefined })
          }}
        >
          Try again
        </button>
      </div>
    )
  }
}
