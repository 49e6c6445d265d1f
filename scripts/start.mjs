// `npm start`: installs what is missing, builds the wasm package and the
// site, and serves site/ on localhost (default port 8080, or --port N / $PORT).

import { build } from './build.mjs';
import { portFromArgs, serve } from './serve.mjs';
import { setup } from './setup.mjs';

try {
  await setup();
  await build();
} catch (e) {
  console.error(`\nnpm start failed: ${e.message}`);
  process.exit(1);
}
const { url } = await serve({ port: portFromArgs(), quiet: true });
console.log(`\ngdlkit is running at ${url}  (Ctrl-C to stop)`);
