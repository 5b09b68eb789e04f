// Thin Comlink entry of the record checker: the work is makeCheckerApi() (recordChecks.ts).
import { expose } from 'comlink'
import './comlinkErrors'
import { loadWasmCodecs } from '../io/codecWasm'
import { makeCheckerApi } from './recordChecks'

// zstd in wasm (ADR 0010); chunks checked before it is ready use fzstd, which decodes them the same.
void loadWasmCodecs()

expose(makeCheckerApi())
