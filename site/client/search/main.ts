// search.js: the search page's script (CONTRACT §9), loaded on that page alone so
// MiniSearch never weighs on the others.
import { startSearchPage } from './page.ts';

startSearchPage();
