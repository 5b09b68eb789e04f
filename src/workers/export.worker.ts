// Thin Comlink entry of the export worker (one per export; the page terminates it to cancel): the work is makeExportApi() (exportJob.ts).
import { expose } from 'comlink'
import './comlinkErrors'
import { makeExportApi } from './exportJob'

expose(makeExportApi())
