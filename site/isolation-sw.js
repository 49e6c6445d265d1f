// A service worker that makes the app's page cross-origin isolated on a
// static host that cannot send headers (GitHub Pages): it adds to each
// same-origin response the two headers `npm start` sends, so that the
// page's workers may share memory and the engine thinks on every core
// (docs/site.md, "Threads"). Other documents under the site (the slide
// decks, which may frame other origins) and requests to other origins pass
// untouched. Registered by isolation.js.

const HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  // `credentialless`, not `require-corp`: other origins' resources (a
  // player URL in the Match view) load without credentials instead of
  // needing a Cross-Origin-Resource-Policy of their own.
  'Cross-Origin-Embedder-Policy': 'credentialless',
};

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** Whether the request is for the app page or what it loads from this origin. */
function isolates(request) {
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  if (request.mode !== 'navigate') return true;
  const scope = new URL(self.registration.scope).pathname;
  return url.pathname === scope || url.pathname === `${scope}index.html`;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // A request the browser may only answer from its cache cannot be refetched here.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  if (!isolates(request)) return;
  event.respondWith(
    fetch(request).then((response) => {
      if (response.status === 0) return response; // opaque: its headers cannot be read or set
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(HEADERS)) headers.set(name, value);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }),
  );
});
