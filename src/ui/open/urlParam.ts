/**
 * `?url=…` in the page address: a link that opens a remote file
 * (`rad serve` prints one). Read once at start; written when a URL is opened
 * from the top bar so that the address can be reloaded or shared, and removed
 * when a local file replaces it. The hash is left alone.
 */
const PARAM = 'url'

/** The `url` parameter of `search` (location.search), if any. */
export function readUrlParam(search: string): string | undefined {
  const value = new URLSearchParams(search).get(PARAM)
  return value === null || value.trim() === '' ? undefined : value
}

/** `href` with `?url=` set to `url`, or removed when `url` is undefined. */
export function withUrlParam(href: string, url: string | undefined): string {
  const next = new URL(href)
  if (url === undefined) next.searchParams.delete(PARAM)
  else next.searchParams.set(PARAM, url)
  return next.href
}

/** Puts `url` (or nothing) in the address bar without a reload or a history entry. */
export function showUrlParam(url: string | undefined): void {
  const next = withUrlParam(location.href, url)
  if (next !== location.href) history.replaceState(history.state, '', next)
}

const STUDY = 'study'

/** The `study` parameters of `search`: a study of URLs (`?study=A&study=B`, docs/study.md). */
export function readStudyParam(search: string): string[] {
  return new URLSearchParams(search).getAll(STUDY).filter((u) => u.trim() !== '')
}

/** `href` with its `study` parameters set to `urls` (removed when there are none). */
export function withStudyParam(href: string, urls: readonly string[]): string {
  const next = new URL(href)
  next.searchParams.delete(STUDY)
  for (const u of urls) next.searchParams.append(STUDY, u)
  return next.href
}
