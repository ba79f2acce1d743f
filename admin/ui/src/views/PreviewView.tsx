// Preview the public home as a visitor sees it (spec D.3). Hovering (or focusing)
// the dashboard hero offers a Change banner button: paste a URL, pick a vault
// attachment, or upload one. The home is same-origin, so the button is placed on
// the hero from here; the public site needs no admin code.
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { loadSettings, settingsView } from '../settings/settings-model.ts';
import { useStore } from '../store.ts';
import { openBannerDialog, bannerStamp } from './BannerDialog.tsx';

/** Where the public layouts mark the dashboard hero. */
export const HERO_SELECTOR = '[data-hero], .s-hero, .hero, .dashboard-hero, [data-dashboard-hero]';
const BUTTON_ID = 'vault-admin-change-banner';

function decorateHero(doc: Document): boolean {
  const hero = doc.querySelector<HTMLElement>(HERO_SELECTOR);
  if (!hero) return false;
  if (doc.getElementById(BUTTON_ID)) return true;
  if (getComputedStyle(hero).position === 'static') hero.style.position = 'relative';
  const button = doc.createElement('button');
  button.id = BUTTON_ID;
  button.type = 'button';
  button.textContent = t('changeBanner');
  button.setAttribute('data-testid', 'change-banner');
  Object.assign(button.style, {
    position: 'absolute',
    insetInlineEnd: '1rem',
    insetBlockStart: '1rem',
    zIndex: '10',
    padding: '.5rem .9rem',
    font: '600 14px system-ui, sans-serif',
    color: '#1b1a18',
    background: '#f2c94c',
    border: '0',
    borderRadius: '999px',
    boxShadow: '0 2px 10px #0004',
    cursor: 'pointer',
    opacity: '0',
    transition: 'opacity .15s',
  } satisfies Partial<CSSStyleDeclaration>);
  const show = () => (button.style.opacity = '1');
  const hide = () => {
    if (doc.activeElement !== button) button.style.opacity = '0';
  };
  hero.addEventListener('mouseenter', show);
  hero.addEventListener('mouseleave', hide);
  button.addEventListener('focus', show);
  button.addEventListener('blur', hide);
  button.addEventListener('click', (e) => {
    e.preventDefault();
    openBannerDialog();
  });
  hero.appendChild(button);
  return true;
}

export function PreviewView() {
  const frame = useRef<HTMLIFrameElement>(null);
  const [hasHero, setHasHero] = useState<boolean | null>(null);
  const stamp = useStore(bannerStamp);
  const settings = useStore(settingsView);
  useEffect(() => {
    void loadSettings();
  }, []);
  const onLoad = () => {
    const doc = frame.current?.contentDocument;
    if (!doc) return;
    setHasHero(decorateHero(doc));
  };
  const dashboard = settings.kind === 'ok' && settings.settings.home.mode === 'dashboard';
  return (
    <section class="page preview-view" aria-label={t('previewSite')} data-testid="preview-view">
      <div class="page-head">
        <h1>{t('previewSite')}</h1>
        <span class="grow" />
        <button type="button" onClick={openBannerDialog}>
          {t('changeBanner')}
        </button>
      </div>
      {hasHero === false && !dashboard && <p class="notice">{t('notDashboard')}</p>}
      {/* No allow-scripts: nothing in the previewed site runs, so a published note cannot
          script the admin; allow-same-origin only lets this page place the hero's button. */}
      <iframe
        key={stamp}
        ref={frame}
        class="site-frame"
        src="/"
        title={t('previewSite')}
        sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
        onLoad={onLoad}
      />
    </section>
  );
}
