// Thin Comlink entry of the index worker: the work is makeIndexApi() (indexApi.ts).
import { expose } from 'comlink'
import './comlinkErrors'
import { loadWasmCodecs } from '../io/codecWasm'
import { makeIndexApi } from './indexApi'

// zstd in wasm (ADR 0010); chunks decoded before it is ready use fzstd, which decodes them the same.
void loadWasmCodecs()
expose(makeIndexApi())
