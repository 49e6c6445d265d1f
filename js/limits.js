// The gdlkit JavaScript API, limits area: the memory budget of
// this wasm instance. Evaluation stops with a GdlEvalError naming the budget
// once the engine holds more (checked in the same loops as the time limits),
// so running out of memory is an error, not a trap that kills the instance.
// The module's maximum memory is 2 GiB; the default budget 1,536 MB.

import { needReady, onRebuild, wasm } from './wasm.js';

/** The budget set last, set again on a new instance (after a trap, js/wasm.js). */
let budget;
onRebuild(() => {
  if (budget !== undefined) {
    wasm.setMemoryBudget(budget);
  }
});

/** Sets the memory budget in MB (16 to 1,920, below the 2 GiB maximum): a RangeError outside. */
export function setMemoryBudget(mb) {
  needReady();
  if (typeof mb !== 'number') {
    throw new TypeError('setMemoryBudget(mb): mb must be a number of MB (16 to 1920)');
  }
  wasm.setMemoryBudget(mb);
  budget = mb;
}

/** `{budgetMb, usedMb}`: the budget and the memory the engine holds now, in MB. */
export function memoryBudget() {
  needReady();
  return wasm.memoryBudget();
}
