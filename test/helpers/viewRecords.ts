/** Records from `rad view`'s lines (one per alignment: ID, HI, NH, CB, UMI, DIR, reference), for tests that recount them. */
export interface ViewRecord {
  barcode: string
  umi: string
  refs: string[]
}

export function recordsOf(view: string): ViewRecord[] {
  const byId = new Map<string, ViewRecord>()
  for (const line of view.split('\n')) {
    if (line === '') continue
    const [id, , , cb, umi, , ref] = line.split('\t')
    let r = byId.get(id!)
    if (!r) byId.set(id!, (r = { barcode: cb!.slice(3), umi: umi!.slice(4), refs: [] }))
    r.refs.push(ref!)
  }
  return [...byId.values()]
}
