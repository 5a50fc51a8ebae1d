import { LANG_CODES, localeOf } from '@kabuto/contract';
import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { sessionStore, useSession } from '@/shared/session/session';
import { LANGUAGE_NAMES } from '../language-names';

/** /subPackages/switchLanguage/switchLanguage: applied at once and remembered (localStorage "locale"). */
export function SwitchLanguagePage() {
  const { t } = useTranslation();
  const lang = useSession((s) => s.lang);
  return (
    <>
      <p className="page-hint">{t('language.hint')}</p>
      <List aria-label={t('titles.switchLanguage')}>
        {LANG_CODES.map((code) => (
          <List.Item key={code} extra={code === lang ? <span aria-hidden="true">✓</span> : null}>
            <button
              type="button"
              className="menu-link"
              lang={localeOf(code)}
              aria-pressed={code === lang}
              onClick={() => {
                sessionStore.setLang(code);
              }}
            >
              {LANGUAGE_NAMES[code]}
            </button>
          </List.Item>
        ))}
      </List>
    </>
  );
}
