import { useEffect, useRef, useState } from 'react'
import { readDrop } from './dropEntries'
import { rememberDropHandles } from '../persist/fileHandles'
import type { DropPlan } from './dropPlan'

interface Props {
  onFile: (file: File) => void
  /** A folder or several files: App says what was dropped and offers the RAD files. */
  onPlan: (plan: DropPlan) => void
}

function hasFiles(ev: DragEvent): boolean {
  return ev.dataTransfer?.types.includes('Files') ?? false
}

/**
 * Drop anywhere: listens on the window and shows a full-page drop target
 * while files are dragged over the page (the idle page also shows a static
 * one). One file is opened; a folder or several files become a DropPlan.
 */
export function DropZone({ onFile, onPlan }: Props) {
  const [dragging, setDragging] = useState(false)
  const depth = useRef(0)
  const onFileRef = useRef(onFile)
  const onPlanRef = useRef(onPlan)
  useEffect(() => {
    onFileRef.current = onFile
    onPlanRef.current = onPlan
  }, [onFile, onPlan])

  useEffect(() => {
    const enter = (ev: DragEvent) => {
      if (!hasFiles(ev)) return
      ev.preventDefault()
      depth.current++
      setDragging(true)
    }
    const over = (ev: DragEvent) => {
      if (!hasFiles(ev)) return
      ev.preventDefault()
      if (ev.dataTransfer) ev.dataTransfer.dropEffect = 'copy'
    }
    const leave = (ev: DragEvent) => {
      if (!hasFiles(ev)) return
      depth.current = Math.max(0, depth.current - 1)
      if (depth.current === 0) setDragging(false)
    }
    const drop = (ev: DragEvent) => {
      ev.preventDefault()
      depth.current = 0
      setDragging(false)
      if (!ev.dataTransfer) return
      // The handles for Recent files after the entries (readDrop takes them synchronously); a drop
      // whose items give no handle (a folder, a synthetic drop) still opens.
      void readDrop(ev.dataTransfer)?.then((dropped) => {
        if (dropped instanceof File) onFileRef.current(dropped)
        else onPlanRef.current(dropped)
      })
      try {
        rememberDropHandles(ev.dataTransfer)
      } catch {
        // No handles: Recent files reopens this one through the file chooser.
      }
    }
    window.addEventListener('dragenter', enter)
    window.addEventListener('dragover', over)
    window.addEventListener('dragleave', leave)
    window.addEventListener('drop', drop)
    return () => {
      window.removeEventListener('dragenter', enter)
      window.removeEventListener('dragover', over)
      window.removeEventListener('dragleave', leave)
      window.removeEventListener('drop', drop)
    }
  }, [])

  if (!dragging) return null
  return (
    <div className="drop-overlay" data-testid="drop-overlay">
      <div className="drop-overlay-box">Drop the file to open it</div>
    </div>
  )
}
