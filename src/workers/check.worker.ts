// Thin Comlink entry of the record checker: the work is makeCheckerApi() (recordChecks.ts).
import { expose } from 'comlink'
import './comlinkErrors'
import { makeCheckerApi } from './recordChecks'

expose(makeCheckerApi())
