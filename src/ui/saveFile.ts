/**
 * Hands a File made on this page to the browser's download: an object URL
 * and a click on a temporary link. Nothing leaves the computer (a blob: URL
 * is local), and the URL is revoked once the download has surely started.
 */
export function saveFile(file: File): void {
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = file.name
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => {
    URL.revokeObjectURL(url)
  }, 60_000)
}
