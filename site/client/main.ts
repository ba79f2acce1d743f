// The blog's few browser scripts (spec D.4, D.6, CONTRACT §8), small and framework-free.
import { startBackToTop } from './back-to-top.ts';
import { startComments } from './comments.ts';
import { startDiagrams } from './diagrams.ts';
import { startPreviews } from './previews.ts';
import { startTopicRow } from './topic-row.ts';

document.documentElement.classList.add('s-js');
startTopicRow();
startPreviews();
startBackToTop();
startDiagrams();
startComments();
