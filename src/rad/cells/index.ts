/** Cell and gene figures from a t2g, gene names and a permit list (docs/cells.md). */
export { annotationText, parseT2g, parseGeneNames, geneLabels, mitoGenes, DEFAULT_MITO } from './annotations'
export type { GeneMap } from './annotations'
export { parsePermitList, classifyBarcode, PERMIT_CLASSES } from './permitList'
export type { PermitList, PermitClass } from './permitList'
export { CellQc } from './cellQc'
export type { CellQcState } from './cellQc'
export { cellsJson, cellsTsv, mitoFractions, topGenes, permitCounts, TOP_GENES } from './cellsJson'
export type { CellsJson, CellsJsonOptions } from './cellsJson'
