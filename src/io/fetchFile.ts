/**
 * A small file of the app's own (the bundled sample) fetched whole into a File, so it opens as a
 * dropped file does: remembered in Recent files and in the index cache (ADR 0007). A Blob handle
 * only; its bytes are read by the workers.
 */
export async function fetchFile(url: string, name: string): Promise<File> {
  const res = await fetch(url)
  if (!res.ok) throw new Error(`the server answered ${String(res.status)}`)
  const blob = await res.blob()
  return new File([blob], name, { type: 'application/octet-stream' })
}
