// Thin Comlink entry of the cells worker (one per pass; the page terminates it to cancel): the work is makeCellsApi() (cellsJob.ts).
import { expose } from 'comlink'
import './comlinkErrors'
import { makeCellsApi } from './cellsJob'

expose(makeCellsApi())
