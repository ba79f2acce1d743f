// The blog's few browser scripts (spec D.4, D.6, CONTRACT §8, §9's `/` key, code's Copy button), small and framework-free.
// The search page's own script is search/main.ts (search.js, loaded there alone).
import { startBackToTop } from './back-to-top.ts';
import { startCanvases } from './canvas.ts';
import { startCodeCopy } from './code-copy.ts';
import { startComments } from './comments.ts';
import { startDiagrams } from './diagrams.ts';
import { startExplorer } from './explorer.ts';
import { startGraphBoxes } from './graph-box.ts';
import { startPreviews } from './previews.ts';
import { startSearchBox } from './search-box.ts';
import { startThemeToggle } from './theme.ts';
import { startToc } from './toc.ts';
import { startTopicRow } from './topic-row.ts';

// Each start changes what it needs and leaves every reading of the layout (a position, a size,
// a scroll extent) to the next frame: a reading between two changes made the browser lay the
// whole page out inside this script, twice on a long article (a 300 KB note: 300-400 ms each on
// a phone). test/e2e/startup-layout.test.ts reads none while this script runs.
document.documentElement.classList.add('s-js');
startThemeToggle();
startTopicRow();
startExplorer();
startToc();
startPreviews();
startBackToTop();
startDiagrams();
startCodeCopy();
startSearchBox();
startComments();
startCanvases();
startGraphBoxes();
