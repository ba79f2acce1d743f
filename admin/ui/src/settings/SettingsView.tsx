// Settings (CONTRACT §5, spec 2.1, D.1–D.5, 9, Appendix C): site, publishing, home,
// collections, note versions, and this device's own choices. One form model
// (form-model.ts): fields show the values in effect and where they come from, edits
// stay drafts until the one Save, and leaving with drafts asks first.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t, type Lang } from '../i18n.ts';
import { prefs, setPref, setTravelWithVault, travelWithVault } from '../prefs.ts';
import { useStore } from '../store.ts';
import { declaredCollections, type Collection } from '../tree/collections.ts';
import { entries } from '../tree/model.ts';
import type { Settings } from '../types.ts';
import { choiceDialog, toast, toastError } from '../ui/feedback.ts';
import { guardLeaving, showView } from '../views.ts';
import { CheckField, RadioField, SaveBar, SelectField, TextField } from './fields.tsx';
import { dirtyKeys, discard, saveFields, type FieldKey } from './form-model.ts';
import { loadSettings, settingsView } from './settings-model.ts';
import { TravelReportView } from './TravelReport.tsx';
import { SITE_LANGUAGES } from '../../../../shared/settings/languages.ts';

/** Each language by its own name, its tag beside it (the site's `lang`). */
const LANGUAGE_OPTIONS: [string, string][] = SITE_LANGUAGES.map(({ tag, name }) => [tag, `${name} (${tag})`]);

/** Settings' own fields: every key but the sync group (Backup & sync in the panel saves those). */
export const inSettingsForm = (key: FieldKey) => !key.startsWith('sync.');

function Group({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="settings-group form" aria-labelledby={`group-${id}`} data-group={id}>
      <h2 id={`group-${id}`}>{title}</h2>
      {children}
    </section>
  );
}

function SiteGroup({ s }: { s: Settings }) {
  const notes = useStore(entries).filter((e) => e.kind === 'note');
  return (
    <Group id="site" title={t('site')}>
      <TextField s={s} field="siteName" label={t('siteName')} />
      <TextField s={s} field="tagline" label={t('tagline')} />
      <TextField s={s} field="logo" label={t('logo')} />
      <SelectField s={s} field="language" label={t('language')} fallback="en" options={[['', t('languageServerDefault')], ...LANGUAGE_OPTIONS]} />
      <TextField s={s} field="homeNote" label={t('homeNote')} list="note-paths" placeholder={t('homeNoteDefault')} />
      <datalist id="note-paths">
        {notes.slice(0, 500).map((n) => (
          <option value={n.path} />
        ))}
      </datalist>
      <TextField s={s} field="footer" label={t('footer')} placeholder={`© {year} {siteName}`} />
      <RadioField
        s={s}
        field="calendars.display"
        legend={t('calendar')}
        fallback="gregorian"
        options={[
          ['gregorian', t('calendarGregorian')],
          ['hijri', t('calendarHijri')],
          ['both', t('calendarBoth')],
        ]}
      />
      <small class="muted">{t('calendarHint')}</small>
    </Group>
  );
}

function PublishingGroup({ s }: { s: Settings }) {
  return (
    <Group id="publishing" title={t('publishingGroup')}>
      <SelectField
        s={s}
        field="publishing.layout"
        label={t('layout')}
        fallback="default"
        options={[
          ['default', t('layoutDefault')],
          ['blog', t('layoutBlog')],
          ['designed', t('layoutDesigned')],
        ]}
      />
      <CheckField s={s} field="publishing.shareButtons" label={t('shareButtons')} fallback />
      <CheckField s={s} field="publishing.languageFilter" label={t('languageFilter')} />
      <RadioField
        s={s}
        field="publishing.feedContent"
        legend={t('feedContent')}
        fallback="excerpt"
        options={[
          ['excerpt', t('feedExcerpt')],
          ['full', t('feedFull')],
        ]}
      />
      <RadioField
        s={s}
        field="publishing.properties"
        legend={t('propertiesPanel')}
        fallback="off"
        options={[
          ['off', t('propertiesOff')],
          ['shown', t('propertiesShown')],
        ]}
      />
    </Group>
  );
}

function HomeGroup({ s }: { s: Settings }) {
  return (
    <Group id="home" title={t('homeGroup')}>
      <RadioField
        s={s}
        field="home.mode"
        legend={t('homeMode')}
        fallback="note"
        options={[
          ['note', t('homeModeNote')],
          ['dashboard', t('homeModeDashboard')],
        ]}
      />
      <TextField s={s} field="home.banner" label={t('banner')} />
      <p>
        <button type="button" onClick={() => showView('preview')}>
          {t('previewSite')}
        </button>
      </p>
    </Group>
  );
}

function CollectionsGroup({ s }: { s: Settings }) {
  const [declared, setDeclared] = useState<Collection[] | null>(null);
  useEffect(() => {
    declaredCollections().then(setDeclared, () => setDeclared([]));
  }, []);
  return (
    <Group id="collections" title={t('collections')}>
      <CheckField s={s} field="collections.enabled" label={t('collectionsEnable')} />
      <CheckField s={s} field="collections.showOnHome" label={t('showOnHome')} fallback />
      <CheckField s={s} field="collections.showInNav" label={t('showInNav')} />
      <RadioField
        s={s}
        field="collections.source"
        legend={t('collectionSource')}
        fallback="tags"
        options={[
          ['tags', t('sourceTags')],
          ['folders', t('sourceFolders')],
        ]}
      />
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

/** CONTRACT §8: comments and mentions under articles, and how they are moderated. */
function CommentsGroup({ s }: { s: Settings }) {
  return (
    <Group id="comments" title={t('comments')}>
      <CheckField s={s} field="comments.enabled" label={t('commentsEnable')} />
      <RadioField
        s={s}
        field="comments.moderation"
        legend={t('moderation')}
        fallback="all"
        options={[
          ['all', t('moderationAll')],
          ['known', t('moderationKnown')],
          ['none', t('moderationNone')],
        ]}
      />
      <small class="muted">{t('commentsHint')}</small>
    </Group>
  );
}

function VersionsGroup({ s }: { s: Settings }) {
  return (
    <Group id="versions" title={t('keepVersions')}>
      <CheckField s={s} field="versions.keep" label={t('keepVersions')} fallback />
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

/** Leaving Settings with drafts asks: save them, discard them, or stay. */
async function confirmLeaving(from: string): Promise<boolean> {
  const keys = dirtyKeys(inSettingsForm);
  if (from !== 'settings' || keys.length === 0) return true;
  const choice = await choiceDialog(t('leaveUnsaved', { count: keys.length }), [
    { id: 'stay', label: t('stay') },
    { id: 'discard', label: t('discardAndLeave') },
    { id: 'save', label: t('saveAndLeave'), primary: true },
  ]);
  if (choice === 'discard') discard(keys);
  if (choice !== 'save') return choice === 'discard';
  try {
    await saveFields(keys);
    toast(t('settingsSaved'));
    return true;
  } catch (err) {
    toastError(err);
    return false;
  }
}

export function SettingsView({ signOut }: { signOut: () => void }) {
  const view = useStore(settingsView);
  useEffect(() => {
    void loadSettings();
    return guardLeaving(confirmLeaving);
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
          <SaveBar inForm={inSettingsForm} testId="settings-save" />
          <SiteGroup s={view.settings} />
          <PublishingGroup s={view.settings} />
          <HomeGroup s={view.settings} />
          <CollectionsGroup s={view.settings} />
          <CommentsGroup s={view.settings} />
          <VersionsGroup s={view.settings} />
        </>
      )}
      <DeviceGroup signOut={signOut} />
      <TravelReportView />
    </section>
  );
}
