// The build thread of a full build, as its own module (dist/bundle/build-thread.js when compiled):
// what it does is site/build/build-thread-serve.ts.
import { serveBuildThread } from './build-thread-serve.ts';

serveBuildThread();
