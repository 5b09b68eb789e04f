import { describe, expect, it } from 'vitest'
import { sampleNames } from '../../../src/rad/report/sampleNames'

describe('sampleNames: one rule for studies, MultiQC and Parquet exports', () => {
  it('the file name without .rad, or the run folder of …/<sample>/af_map/map.rad', () => {
    expect(sampleNames(['runs/pbmc1k.rad', 'x/y.rad.sz', 'study/s1/af_map/map.rad', 'af_map/map.rad'])).toEqual([
      'pbmc1k',
      'y',
      's1',
      'map',
    ])
  })

  it('names two files share take the folders above them until they differ', () => {
    expect(sampleNames(['a/s1/af_map/map.rad', 'b/s1/af_map/map.rad', 'c/s2/af_map/map.rad'])).toEqual([
      'a_s1',
      'b_s1',
      's2',
    ])
    expect(sampleNames(['lane1/run.rad', 'lane2/run.rad'])).toEqual(['lane1_run', 'lane2_run'])
  })

  it('keeps folder-safe characters only, and numbers a path given twice', () => {
    expect(sampleNames(['my sample (1).rad', 'x.rad', 'x.rad'])).toEqual(['my_sample__1_', 'x', 'x_2'])
  })
})
