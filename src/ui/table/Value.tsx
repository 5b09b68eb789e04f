import { placeholderReason } from '../../rad/text/display'
import type { PlaceholderField } from '../../rad/text/display'
import { fmtCount } from '../format'

/** A number, or "—" with the reason as its tooltip when the producer wrote a "not available" placeholder. */
export function CountOrPlaceholder({ field, value }: { field: PlaceholderField; value: number }) {
  const reason = placeholderReason(field, value)
  if (reason === undefined) return <>{fmtCount(value)}</>
  return (
    <span className="placeholder" data-testid="placeholder" data-value={String(value)} title={reason}>
      —
    </span>
  )
}
