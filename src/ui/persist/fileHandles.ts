/**
 * File System Access handles of dropped files (Chromium): kept so that a recent file reopens with
 * one click. They must be asked for during the drop event, like the rest of the DataTransfer.
 */
interface HandleItem {
  getAsFileSystemHandle?: () => Promise<FileSystemHandle | null>
}

/** What the permission API of a kept handle looks like (Chromium; not in TypeScript's DOM types yet). */
export interface PermissionedHandle extends FileSystemFileHandle {
  queryPermission?: (opts: { mode: 'read' }) => Promise<PermissionState>
  requestPermission?: (opts: { mode: 'read' }) => Promise<PermissionState>
}

const pending = new Map<string, Promise<FileSystemHandle | null>>()

function fileId(file: File): string {
  return `${file.name}\u0000${String(file.size)}\u0000${String(file.lastModified)}`
}

/** Call in the drop handler: asks the browser for each dropped file's handle. */
export function rememberDropHandles(dt: DataTransfer): void {
  pending.clear()
  for (const item of Array.from(dt.items)) {
    const ask = (item as DataTransferItem & HandleItem).getAsFileSystemHandle
    const file = item.kind === 'file' ? item.getAsFile() : null
    if (!ask || !file) continue
    pending.set(
      fileId(file),
      ask.call(item).catch(() => null),
    )
  }
}

/** The handle of a file dropped just now, where the browser gave one. */
export async function handleFor(file: File): Promise<FileSystemFileHandle | undefined> {
  const handle = await pending.get(fileId(file))
  return handle?.kind === 'file' ? (handle as FileSystemFileHandle) : undefined
}

/** The file behind a kept handle, after the browser's permission prompt; undefined when refused. */
export async function fileFromHandle(handle: PermissionedHandle): Promise<File | undefined> {
  const opts = { mode: 'read' } as const
  let state = (await handle.queryPermission?.(opts)) ?? 'granted'
  if (state !== 'granted') state = (await handle.requestPermission?.(opts)) ?? 'denied'
  return state === 'granted' ? handle.getFile() : undefined
}
