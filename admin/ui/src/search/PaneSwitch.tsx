// The left pane's two faces: the file tree and vault search.
import { shortcut, t } from '../i18n.ts';
import { useStore } from '../store.ts';
import { leftPane, openSearch, showFiles } from '../views.ts';

export function PaneSwitch({ children }: { children?: preact.ComponentChildren }) {
  const { show } = useStore(leftPane);
  return (
    <div class="pane-head">
      <div class="pane-switch" role="tablist" aria-label={t('leftPane')}>
        <button type="button" role="tab" aria-selected={show === 'files'} onClick={showFiles}>
          {t('files')}
        </button>
        <button type="button" role="tab" aria-selected={show === 'search'} title={`${t('searchVault')} (${shortcut('F', true)})`} onClick={openSearch}>
          {t('search')}
        </button>
      </div>
      <span class="grow" />
      {children}
    </div>
  );
}
