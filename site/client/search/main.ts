// search.js: the search page's script and the search dialog's results (CONTRACT §9),
// loaded on the search page, and by blog.js when a reader first opens the dialog, so
// MiniSearch never weighs on a page that does not search.
import { startSearchDialog } from './dialog.ts';
import { startSearchPage } from './page.ts';

startSearchPage();
startSearchDialog();
