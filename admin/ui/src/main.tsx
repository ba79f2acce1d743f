// Entry of the admin web app: theme, interface language and the narrow-screen
// switch follow the device preferences; then the app is drawn.
import { render } from 'preact';
import { App } from './App.tsx';
import { installEditorTools } from './editor/app-tools.ts';
import { applyLang } from './i18n.ts';
import { applyTheme, prefs } from './prefs.ts';
import { narrow, panes, setPane } from './views.ts';
import './styles.css';
import './tools.css';
import './comments/comments.css';
import './health/health.css';

const NARROW = matchMedia('(max-width: 760px)');

function follow(): void {
  const p = prefs.get();
  applyTheme(p.theme);
  applyLang(p.interfaceLanguage);
}

prefs.subscribe(follow);
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', follow);
follow();

const onWidth = () => {
  narrow.set(NARROW.matches);
  // On a phone the drawers start closed; the editor gets the whole width.
  if (NARROW.matches) {
    setPane('panelOpen', false);
    setPane('treeOpen', false);
  } else {
    panes.set({ ...panes.get() });
  }
};
NARROW.addEventListener('change', onWidth);
onWidth();

installEditorTools();
render(<App />, document.getElementById('app')!);
