// The Outline: the open note's headings, read from the editor's text as it
// is typed; a heading takes the cursor to its line.
import { useMemo } from 'preact/hooks';
import { editorHeadings } from '../editor/direction.ts';
import { activeNote, tabs } from '../editor/workspace.ts';
import { t } from '../i18n.ts';
import { Store, useStore } from '../store.ts';
import { showView } from '../views.ts';
import { PanelSection } from './PanelSection.tsx';

const NO_EDITS = new Store(0);


export function OutlineSection() {
  useStore(tabs);
  const note = activeNote();
  const stamp = useStore(note?.edits ?? NO_EDITS);
  const headings = useMemo(() => (note ? editorHeadings(note.editor.view.state.doc) : []), [note, stamp]);
  const top = Math.min(...headings.map((h) => h.level), 6);
  return (
    <PanelSection id="outline" title={t('outline')}>
      {!note ? null : headings.length === 0 ? (
        <p class="muted">{t('noHeadings')}</p>
      ) : (
        <ol class="outline" aria-label={t('outline')}>
          {headings.map((h) => (
            <li style={{ paddingInlineStart: `${(h.level - top) * 0.9}rem` }}>
              <button
                type="button"
                class="link-row"
                dir="auto"
                data-line={h.line}
                onClick={() => {
                  showView('editor');
                  const doc = note.editor.view.state.doc;
                  note.editor.focusAt(doc.line(Math.min(h.line, doc.lines)).from);
                }}
              >
                {h.text}
              </button>
            </li>
          ))}
        </ol>
      )}
    </PanelSection>
  );
}
