import { useEffect, useLayoutEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

/**
 * One uPlot chart (ADR 0004: canvas, ~50 kB, log axes), sized to its
 * container's width and redrawn when the theme changes (canvas colours are
 * read from app.css's variables at draw time: themeColor). `build` makes the
 * options for a width; `data` updates the drawn series in place.
 */
interface Props {
  data: uPlot.AlignedData
  build: (width: number) => uPlot.Options
  height: number
  /** Called with the chart once it exists (for interaction: the knee plot's cut-off). */
  onReady?: (chart: uPlot) => void
  label: string
  testId?: string
}

export function UPlotChart({ data, build, height, onReady, label, testId }: Props) {
  const box = useRef<HTMLDivElement>(null)
  const chart = useRef<uPlot | undefined>(undefined)
  const latest = useRef(data)
  useLayoutEffect(() => {
    latest.current = data
  })

  useEffect(() => {
    const el = box.current
    if (!el) return
    const width = Math.max(200, el.clientWidth)
    const u = new uPlot({ ...build(width), height }, latest.current, el)
    chart.current = u
    onReady?.(u)
    const resize = new ResizeObserver(() => {
      const w = Math.max(200, el.clientWidth)
      if (w !== u.width) u.setSize({ width: w, height })
    })
    resize.observe(el)
    const redraw = (): void => {
      u.redraw(false, true)
    }
    const theme = new MutationObserver(redraw)
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
    const scheme = window.matchMedia('(prefers-color-scheme: dark)')
    scheme.addEventListener('change', redraw)
    return () => {
      resize.disconnect()
      theme.disconnect()
      scheme.removeEventListener('change', redraw)
      u.destroy()
      chart.current = undefined
    }
  }, [build, height, onReady])

  useEffect(() => {
    chart.current?.setData(data)
  }, [data])

  return <div ref={box} className="chart" role="img" aria-label={label} data-testid={testId} />
}

/** A CSS colour variable of app.css (light-dark() resolved for the current theme), for canvas drawing. */
export function themeColor(name: string): string {
  const probe = document.createElement('span')
  probe.style.color = `var(${name})`
  probe.style.display = 'none'
  document.body.append(probe)
  const color = getComputedStyle(probe).color
  probe.remove()
  return color
}
