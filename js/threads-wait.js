// Waiting for the worker threads of a module with shared memory, in Node
// (js/threads-node.js) and the page (js/wasm.js) alike.

/**
 * Resolves once `count` threads run the pool's loop of `module` (a worker
 * counts once it does, just after saying it is ready), or after `ms`
 * milliseconds; resolves to the number running.
 */
export async function waitForThreads(module, count, ms) {
  const deadline = Date.now() + ms;
  while (module.threadCount() < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return module.threadCount();
}
