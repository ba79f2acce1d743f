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
