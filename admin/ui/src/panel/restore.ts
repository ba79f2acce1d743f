// Restore a revision (Appendix B, spec 9). A commit's text goes into the open editor
// as one undoable step and is saved through the ordinary save path; a version is
// restored by the server after a confirmation, and the editor takes it as an
// undoable step too. Either toast carries Undo.
import { api } from '../api.ts';
import { UnsavedNotKept } from '../editor/session.ts';
import { openNote } from '../editor/workspace.ts';
import { formatTime, t } from '../i18n.ts';
import { confirmDialog, toast, toastError } from '../ui/feedback.ts';
import { showView } from '../views.ts';
import { shownRevision, timelineStamp, type ShownRevision } from './timeline.ts';

function offerUndo(note: Awaited<ReturnType<typeof openNote>>): void {
  toast(t('restored'), {
    action: {
      label: t('undo'),
      run: async () => {
        await note.session.undoLast();
        timelineStamp.update((n) => n + 1);
        toast(t('undone'));
      },
    },
  });
}

export async function restoreShown(shown: ShownRevision): Promise<void> {
  try {
    if (shown.row.kind === 'version') {
      const at = shown.row.version.at;
      const ok = await confirmDialog(t('restoreVersionConfirm', { time: formatTime(shown.row.version.savedAt) }), { okLabel: t('restore') });
      if (!ok) return;
      const note = await openNote(shown.notePath);
      await note.session.adoptServerWrite(() => api.restoreVersion(shown.notePath, at));
      shownRevision.set(null);
      showView('editor');
      offerUndo(note);
    } else {
      const note = await openNote(shown.notePath);
      await note.session.applyRestore(shown.content);
      shownRevision.set(null);
      showView('editor');
      offerUndo(note);
    }
    timelineStamp.update((n) => n + 1);
  } catch (err) {
    toastError(err instanceof UnsavedNotKept ? new Error(t('restoreNotKept', { error: err.message })) : err);
  }
}
