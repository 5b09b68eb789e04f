import './session.css'
import { fmtCount } from '../format'
import type { LinkTarget } from './useDeepLink'

/** On the start page after a reload: the address points into a local file, which must be opened again. */
export function LinkPending({ target }: { target: LinkTarget | undefined }) {
  const link = target?.state
  if (!link?.fp) return null
  const where =
    link.record !== undefined
      ? `record ${fmtCount(link.record)}`
      : link.chunk !== undefined
        ? `chunk ${fmtCount(link.chunk)}`
        : 'a file'
  return (
    <p className="notice link-pending" data-testid="link-pending">
      This address points at {where} of a local file ({fmtCount(Number(link.fp.split('-')[0]))} bytes). Open the same
      file again to go there.
    </p>
  )
}
