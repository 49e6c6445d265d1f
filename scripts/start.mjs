// `npm start`: installs what is missing, builds the wasm package and the
// site, and serves site/ on localhost (default port 8080, or --port N / $PORT),
// cross-origin isolated so that the engine runs on threads.

import { build } from './build.mjs';
import { ISOLATION, portFromArgs, serve } from './serve.mjs';
import { setup } from './setup.mjs';

try {
  await setup();
  await build();
} catch (e) {
  console.error(`\nnpm start failed: ${e.message}`);
  process.exit(1);
}
// Cross-origin isolated: the page's engine thinks on all cores (shared memory).
const { url } = await serve({ port: portFromArgs(), quiet: true, headers: ISOLATION });
console.log(`\ngdlkit is running at ${url}  (Ctrl-C to stop)`);
