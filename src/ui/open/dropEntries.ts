/**
 * Reads a drop through the File and Directory Entries API (DataTransferItem.webkitGetAsEntry):
 * `dataTransfer.files` alone shows a dropped folder as a 4 kB "file" that cannot be read.
 */
import { planFiles, planFolder } from './dropPlan'
import type { DropPlan, DroppedFile, Sidecar } from './dropPlan'

/**
 * A folder is read this deep: RAD files at its top or in runs below it (a study of
 * `<sample>/af_map/map.rad`), sidecars also in `aux_info/` (docs/format.md §8).
 */
const MAX_DEPTH = 5

function isDirectory(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory
}

function isFile(entry: FileSystemEntry): entry is FileSystemFileEntry {
  return entry.isFile
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => {
    entry.file(resolve, reject)
  })
}

/** All entries of a folder: readEntries returns them in batches until an empty one. */
async function entriesOf(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader()
  const all: FileSystemEntry[] = []
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => {
      reader.readEntries(resolve, reject)
    })
    if (batch.length === 0) return all
    all.push(...batch)
  }
}

async function walk(dir: FileSystemDirectoryEntry, prefix: string, depth: number): Promise<DroppedFile[]> {
  const out: DroppedFile[] = []
  for (const entry of await entriesOf(dir)) {
    const path = `${prefix}${entry.name}`
    if (isFile(entry)) out.push({ path, file: await fileOf(entry) })
    else if (isDirectory(entry) && depth + 1 < MAX_DEPTH) out.push(...(await walk(entry, `${path}/`, depth + 1)))
  }
  return out.sort((a, b) => a.path.localeCompare(b.path))
}

/**
 * One plain file → that File; a folder or several files → a plan. Must be called during the drop
 * event: the DataTransfer is emptied when the handler returns (its entries stay readable).
 */
export function readDrop(dt: DataTransfer): Promise<File | DropPlan> | undefined {
  const items = Array.from(dt.items).filter((item) => item.kind === 'file')
  const entries = items.map((item) => item.webkitGetAsEntry())
  const files = Array.from(dt.files)
  const folder = entries.find((e): e is FileSystemDirectoryEntry => e !== null && isDirectory(e))
  if (folder) return walk(folder, '', 0).then((found) => planFolder(folder.name, found))
  if (files.length > 1) return Promise.resolve(planFiles(files.map((file) => ({ path: file.name, file }))))
  const only = files[0]
  return only ? Promise.resolve(only) : undefined
}

/** The sidecar JSON files' text, pretty-printed when it parses. */
export async function readSidecars(files: readonly DroppedFile[]): Promise<Sidecar[]> {
  return Promise.all(
    files.map(async ({ path, file }) => {
      const raw = await file.text()
      try {
        return { path, text: JSON.stringify(JSON.parse(raw), null, 2) }
      } catch {
        return { path, text: raw }
      }
    }),
  )
}
