// A full build's partner thread, as its own module (dist/bundle/partner.js when compiled):
// what it does is site/build/partner-serve.ts.
import { servePartner } from './partner-serve.ts';

servePartner();
