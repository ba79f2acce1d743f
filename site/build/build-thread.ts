// A full build's partner thread, as its own module (dist/bundle/build-thread.js when compiled):
// what it does is site/build/build-thread-serve.ts.
import { servePartner } from './build-thread-serve.ts';

servePartner();
