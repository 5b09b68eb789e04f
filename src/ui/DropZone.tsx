import { useEffect, useRef, useState } from 'react'

interface Props {
  onFile: (file: File) => void
}

function hasFiles(ev: DragEvent): boolean {
  return ev.dataTransfer?.types.includes('Files') ?? false
}

/**
 * Drop anywhere: listens on the window and shows a full-page drop target
 * while files are dragged over the page (the idle page also shows a static
 * one). The first dropped file is opened.
 */
export function DropZone({ onFile }: Props) {
  const [dragging, setDragging] = useState(false)
  const depth = useRef(0)
  const onFileRef = useRef(onFile)
  useEffect(() => {
    onFileRef.current = onFile
  }, [onFile])

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
      const file = ev.dataTransfer?.files[0]
      if (file) onFileRef.current(file)
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
