// Cross-origin isolation where the host sends no headers for it (a static
// host such as GitHub Pages): registers isolation-sw.js, which adds them,
// and reloads the page once so that the worker serves it. Where the page is
// isolated already (`npm start`), embedded in a frame, not in a secure
// context, or the browser lacks `credentialless` (the reload did not
// isolate it), nothing happens and the engine runs one tree per worker.
// `?isolation=off` removes the worker again.
(() => {
  const sw = navigator.serviceWorker;
  if (!sw || window.top !== window) return;
  if (/[?&#]isolation=off\b/.test(location.href)) {
    // Reloaded without the worker when it had isolated this page.
    sw.getRegistration().then((r) => r?.unregister()).then((gone) => gone && globalThis.crossOriginIsolated && location.reload());
    return;
  }
  if (globalThis.crossOriginIsolated || !globalThis.isSecureContext) return;
  const tried = 'gdlkit-isolation-reloaded';
  if (sessionStorage.getItem(tried)) return; // reloaded once and still not isolated: the browser cannot
  sw.register(new URL('isolation-sw.js', document.baseURI)).then(
    (registration) => {
      const reload = () => {
        sessionStorage.setItem(tried, '1');
        location.reload();
      };
      if (sw.controller) reload(); // the worker serves already, but this page came from the cache
      else sw.addEventListener('controllerchange', reload, { once: true });
      return registration;
    },
    () => {}, // no worker (a private window, a policy): the page runs as it is
  );
})();
