// Thin Comlink entry of a decode worker: the work is makeDecodeApi() (decodeApi.ts).
import { expose } from 'comlink'
import './comlinkErrors'
import { loadWasmCodecs } from '../io/codecWasm'
import { makeDecodeApi } from './decodeApi'

// zstd in wasm (ADR 0010); chunks decoded before it is ready use fzstd, which decodes them the same.
void loadWasmCodecs()
expose(makeDecodeApi())
