// Settings (CONTRACT §5, spec 2.1, D.1–D.5, 9, Appendix C): site, publishing, home,
// collections, note versions, and this device's own choices. Each group saves with
// one PATCH; the server's refusal is shown beside the group.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t, type Lang } from '../i18n.ts';
import { prefs, setPref, setTravelWithVault, travelWithVault } from '../prefs.ts';
import { useStore } from '../store.ts';
import { declaredCollections, type Collection } from '../tree/collections.ts';
import { entries } from '../tree/model.ts';
import type { Settings } from '../types.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { showView } from '../views.ts';
import { loadSettings, patchSettings, settingsView } from './settings-model.ts';
import { TravelReportView } from './TravelReport.tsx';

type Draft = Record<string, unknown>;

function Group({ id, title, children, onSave }: { id: string; title: string; children: ComponentChildren; onSave?: () => Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!onSave) return;
    setBusy(true);
    setError(null);
    try {
      await onSave();
      toast(t('settingsSaved'));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="settings-group form" aria-labelledby={`group-${id}`} data-group={id} onSubmit={submit}>
      <h2 id={`group-${id}`}>{title}</h2>
      {children}
      {error && (
        <p class="error-line" role="alert">
          {error}
        </p>
      )}
      {onSave && (
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t('save')}
          </button>
        </div>
      )}
    </form>
  );
}

function Text({ label, value, onInput, name, hint, list }: { label: string; value: string; onInput: (v: string) => void; name: string; hint?: string; list?: string }) {
  return (
    <label>
      <span>{label}</span>
      <input name={name} value={value} list={list} onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)} />
      {hint && <small class="muted">{hint}</small>}
    </label>
  );
}

function Check({ label, checked, onChange, name }: { label: string; checked: boolean; onChange: (v: boolean) => void; name: string }) {
  return (
    <label class="check">
      <input type="checkbox" name={name} checked={checked} onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)} />
      <span>{label}</span>
    </label>
  );
}

const orNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/**
 * Sends only what the admin changed: a value this server's environment fills in
 * stays this server's until the admin saves that very field (spec 2.1).
 */
async function patchChanged(before: Draft, after: Draft, group?: string): Promise<void> {
  const changed = Object.fromEntries(
    Object.entries(after)
      .filter(([k, v]) => orNull(v) !== orNull(before[k]))
      .map(([k, v]) => [k, orNull(v)]),
  );
  if (Object.keys(changed).length === 0) return;
  await patchSettings(group ? { [group]: changed } : changed);
}

function SiteGroup({ s }: { s: Settings }) {
  const fields = ['siteName', 'tagline', 'logo', 'language', 'homeNote', 'footer'] as const;
  const initial = () => Object.fromEntries(fields.map((k) => [k, (s[k] as string | null) ?? '']));
  const [draft, setDraft] = useState<Draft>(initial);
  useEffect(() => setDraft(initial()), [s]);
  const notes = useStore(entries).filter((e) => e.kind === 'note');
  const fromEnv = new Set(s.fromEnv ?? []);
  const hint = (k: string) => (fromEnv.has(k) ? t('fromEnvHint') : undefined);
  const set = (k: string) => (v: string) => setDraft({ ...draft, [k]: v });
  return (
    <Group id="site" title={t('site')} onSave={() => patchChanged(initial(), draft)}>
      <Text name="siteName" label={t('siteName')} value={draft.siteName as string} onInput={set('siteName')} hint={hint('siteName')} />
      <Text name="tagline" label={t('tagline')} value={draft.tagline as string} onInput={set('tagline')} hint={hint('tagline')} />
      <Text name="logo" label={t('logo')} value={draft.logo as string} onInput={set('logo')} />
      <Text name="language" label={t('language')} value={draft.language as string} onInput={set('language')} list="language-codes" hint={hint('language')} />
      <datalist id="language-codes">
        <option value="en">English</option>
        <option value="ar">العربية</option>
        <option value="fr">Français</option>
      </datalist>
      <Text name="homeNote" label={t('homeNote')} value={draft.homeNote as string} onInput={set('homeNote')} list="note-paths" hint={hint('homeNote')} />
      <datalist id="note-paths">
        {notes.slice(0, 500).map((n) => (
          <option value={n.path} />
        ))}
      </datalist>
      <Text name="footer" label={t('footer')} value={draft.footer as string} onInput={set('footer')} hint={hint('footer')} />
    </Group>
  );
}

function PublishingGroup({ s }: { s: Settings }) {
  const [p, setP] = useState(s.publishing);
  useEffect(() => setP(s.publishing), [s]);
  return (
    <Group id="publishing" title={t('publishingGroup')} onSave={() => patchChanged(s.publishing, p, 'publishing')}>
      <label>
        <span>{t('layout')}</span>
        <select name="layout" value={p.layout ?? 'default'} onChange={(e) => setP({ ...p, layout: (e.currentTarget as HTMLSelectElement).value as Settings['publishing']['layout'] })}>
          <option value="default">{t('layoutDefault')}</option>
          <option value="blog">{t('layoutBlog')}</option>
          <option value="designed">{t('layoutDesigned')}</option>
        </select>
      </label>
      <Check name="shareButtons" label={t('shareButtons')} checked={p.shareButtons} onChange={(v) => setP({ ...p, shareButtons: v })} />
      <Check name="languageFilter" label={t('languageFilter')} checked={p.languageFilter} onChange={(v) => setP({ ...p, languageFilter: v })} />
    </Group>
  );
}

function HomeGroup({ s }: { s: Settings }) {
  const [h, setH] = useState({ mode: s.home.mode, banner: s.home.banner ?? '' });
  useEffect(() => setH({ mode: s.home.mode, banner: s.home.banner ?? '' }), [s]);
  return (
    <Group id="home" title={t('homeGroup')} onSave={() => patchSettings({ home: { mode: h.mode, banner: orNull(h.banner) } }).then(() => undefined)}>
      <fieldset>
        <legend>{t('homeMode')}</legend>
        {(['note', 'dashboard'] as const).map((mode) => (
          <label class="check">
            <input type="radio" name="homeMode" value={mode} checked={h.mode === mode} onChange={() => setH({ ...h, mode })} />
            <span>{mode === 'note' ? t('homeModeNote') : t('homeModeDashboard')}</span>
          </label>
        ))}
      </fieldset>
      <Text name="banner" label={t('banner')} value={h.banner} onInput={(v) => setH({ ...h, banner: v })} />
      <p>
        <button type="button" onClick={() => showView('preview')}>
          {t('previewSite')}
        </button>
      </p>
    </Group>
  );
}

function CollectionsGroup({ s }: { s: Settings }) {
  const [c, setC] = useState(s.collections);
  const [declared, setDeclared] = useState<Collection[] | null>(null);
  useEffect(() => setC(s.collections), [s]);
  useEffect(() => {
    declaredCollections().then(setDeclared, () => setDeclared([]));
  }, []);
  return (
    <Group id="collections" title={t('collections')} onSave={() => patchChanged(s.collections, c, 'collections')}>
      <Check name="collectionsEnabled" label={t('collectionsEnable')} checked={c.enabled} onChange={(v) => setC({ ...c, enabled: v })} />
      <Check name="showOnHome" label={t('showOnHome')} checked={c.showOnHome} onChange={(v) => setC({ ...c, showOnHome: v })} />
      <Check name="showInNav" label={t('showInNav')} checked={c.showInNav} onChange={(v) => setC({ ...c, showInNav: v })} />
      <fieldset>
        <legend>{t('collectionSource')}</legend>
        {(['tags', 'folders'] as const).map((source) => (
          <label class="check">
            <input type="radio" name="collectionSource" checked={c.source === source} onChange={() => setC({ ...c, source })} />
            <span>{source === 'tags' ? t('sourceTags') : t('sourceFolders')}</span>
          </label>
        ))}
      </fieldset>
      <h3>{t('declared')}</h3>
      {declared === null ? (
        <p class="muted">{t('loading')}</p>
      ) : declared.length === 0 ? (
        <p class="muted">{t('noneDeclared')}</p>
      ) : (
        <ul class="declared" data-testid="declared-collections">
          {declared.map((d) => (
            <li>
              <span class="mark" aria-hidden="true">
                {d.icon}
              </span>{' '}
              <strong>{d.title}</strong>{' '}
              <small class="muted">
                /folder/{d.slug} · #{d.tag}
                {d.folder ? ` · ${d.folder}/` : ''}
                {d.hidden ? ` · ${t('hiddenCollection')}` : ''}
              </small>
              {d.description && <div class="muted small">{d.description}</div>}
            </li>
          ))}
        </ul>
      )}
    </Group>
  );
}

function VersionsGroup({ s }: { s: Settings }) {
  const [keep, setKeep] = useState(s.versions.keep !== false);
  useEffect(() => setKeep(s.versions.keep !== false), [s]);
  return (
    <Group id="versions" title={t('keepVersions')} onSave={() => patchSettings({ versions: { keep } }).then(() => undefined)}>
      <Check name="keepVersions" label={t('keepVersions')} checked={keep} onChange={setKeep} />
      <small class="muted">{t('keepVersionsHint')}</small>
    </Group>
  );
}

function DeviceGroup({ signOut }: { signOut: () => void }) {
  const p = useStore(prefs);
  const travels = useStore(travelWithVault);
  return (
    <Group id="device" title={t('appearance')}>
      <label>
        <span>{t('theme')}</span>
        <select name="theme" value={p.theme} onChange={(e) => setPref('theme', (e.currentTarget as HTMLSelectElement).value as typeof p.theme)}>
          <option value="auto">{t('themeAuto')}</option>
          <option value="light">{t('themeLight')}</option>
          <option value="dark">{t('themeDark')}</option>
        </select>
      </label>
      <label>
        <span>{t('interfaceLanguage')}</span>
        <select name="interfaceLanguage" value={p.interfaceLanguage} onChange={(e) => setPref('interfaceLanguage', (e.currentTarget as HTMLSelectElement).value as Lang)}>
          <option value="en">English</option>
          <option value="ar">العربية</option>
        </select>
      </label>
      {travels !== null && (
        <label class="check">
          <input
            type="checkbox"
            name="travelWithVault"
            role="switch"
            checked={travels}
            onChange={(e) => setTravelWithVault((e.currentTarget as HTMLInputElement).checked).catch(toastError)}
          />
          <span>
            {t('travel')}
            <small class="muted block">{t('travelHint')}</small>
          </span>
        </label>
      )}
      <p>
        <button type="button" onClick={signOut}>
          {t('signOut')}
        </button>
      </p>
    </Group>
  );
}

export function SettingsView({ signOut }: { signOut: () => void }) {
  const view = useStore(settingsView);
  useEffect(() => {
    void loadSettings();
  }, []);
  return (
    <section class="page settings-view" aria-labelledby="settings-title" data-testid="settings-view">
      <div class="page-head">
        <h1 id="settings-title">{t('settings')}</h1>
      </div>
      {view.kind === 'loading' && <p class="muted">{t('loading')}</p>}
      {view.kind === 'error' && <p class="error-line">{t('unavailable', { error: view.message })}</p>}
      {view.kind === 'ok' && (
        <>
          <SiteGroup s={view.settings} />
          <PublishingGroup s={view.settings} />
          <HomeGroup s={view.settings} />
          <CollectionsGroup s={view.settings} />
          <VersionsGroup s={view.settings} />
        </>
      )}
      <DeviceGroup signOut={signOut} />
      <TravelReportView />
    </section>
  );
}
