// The gdlkit JavaScript API, limits area: the memory budget of
// this wasm instance. Evaluation stops with a GdlEvalError naming the budget
// once the engine holds more (checked in the same loops as the time limits),
// so running out of memory is an error, not a trap that kills the instance.
// The module's maximum memory is 2 GiB; the default budget 1,536 MB.

import * as wasm from '../pkg/gdlkit.js';
import { needReady } from './wasm.js';

/** Sets the memory budget in MB (at least 16; at most 1,920, below the 2 GiB maximum). */
export function setMemoryBudget(mb) {
  needReady();
  wasm.setMemoryBudget(mb);
}

/** `{budgetMb, usedMb}`: the budget and the memory the engine holds now, in MB. */
export function memoryBudget() {
  needReady();
  return wasm.memoryBudget();
}
