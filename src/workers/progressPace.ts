/**
 * A pass's progress as a worker sends it to the page: at most every PROGRESS_EVERY_MS, and the
 * last one always. A message per chunk floods the page's thread: on a 1 GiB run the cells pass's
 * ~20,000 messages kept the page re-rendering on one of the machine's two cores while the two
 * workers counted (bench/results.md, issue 38 §5).
 */
export const PROGRESS_EVERY_MS = 100

/** `onProgress` called at most every PROGRESS_EVERY_MS, except when `visited` reaches `total`. */
export function pacedProgress(
  onProgress: (visited: number, total: number | undefined) => void,
): (visited: number, total: number | undefined) => void {
  let last = -Infinity
  return (visited, total) => {
    const now = performance.now()
    if (now - last < PROGRESS_EVERY_MS && visited !== total) return
    last = now
    onProgress(visited, total)
  }
}
