// The one script a page runs before it is drawn (a blocking <script> in <head>, a few
// bytes): the reader's choice of light or dark, so a page never shows the other first,
// and Obsidian Publish's scheme class for a vault's publish.css.
import { applyTheme, markScheme, storedTheme } from './theme.ts';

applyTheme(storedTheme());
markScheme();
