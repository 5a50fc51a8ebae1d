import { APP_VERSION } from '@kabuto/contract';
import { List, Radio, Space } from 'antd-mobile';
import { Trans, useTranslation } from 'react-i18next';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { priceColorsOf, type PriceColors } from '@/shared/session/session-store';
import { sessionStore, useSession } from '@/shared/session/session';
import { confirmLogout } from '@/shared/ui/confirm-logout';
import { MenuButton, MenuLink } from '@/shared/ui/menu-item';
import { LANGUAGE_NAMES } from '../language-names';

/** /subPackages/seting/seting */
export function SettingsPage() {
  const { t } = useTranslation();
  const lang = useSession((s) => s.lang);
  const loggedIn = useSession((s) => s.token !== null);
  const priceColors = useSession(priceColorsOf);

  return (
    <>
      <List header={t('settings.language')}>
        <MenuLink to={PAGE_PATHS.switchLanguage} extra={LANGUAGE_NAMES[lang]}>
          {t('settings.language')}
        </MenuLink>
      </List>
      <List header={t('settings.priceColors')}>
        <List.Item>
          <div role="radiogroup" aria-label={t('settings.priceColors')}>
            <Radio.Group
              value={priceColors}
              onChange={(value) => {
                if (value === 'red-up' || value === 'green-up')
                  sessionStore.setPriceColors(value satisfies PriceColors);
              }}
            >
              <Space direction="vertical">
                <Radio value="red-up">{t('settings.redUp')}</Radio>
                <Radio value="green-up">{t('settings.greenUp')}</Radio>
              </Space>
            </Radio.Group>
          </div>
          <p className="price-preview">
            <Trans
              i18nKey="settings.preview"
              values={{ rise: '▲ +1.25%', fall: '▼ -0.80%' }}
              components={{ r: <span className="price-rise" />, f: <span className="price-fall" /> }}
            />
          </p>
        </List.Item>
      </List>
      <List header={t('titles.settings')}>
        {loggedIn && <MenuLink to={PAGE_PATHS.passkeys}>{t('titles.passkeys')}</MenuLink>}
        {loggedIn && <MenuLink to={PAGE_PATHS.sessions}>{t('titles.sessions')}</MenuLink>}
        {loggedIn && <MenuLink to={PAGE_PATHS.changePassword}>{t('settings.changePassword')}</MenuLink>}
        {loggedIn && (
          <MenuLink to={PAGE_PATHS.transactionPassword}>{t('settings.transactionPassword')}</MenuLink>
        )}
        <MenuLink to={PAGE_PATHS.userAgreement}>{t('settings.userAgreement')}</MenuLink>
        <List.Item extra={<span data-testid="app-version">{APP_VERSION}</span>}>
          {t('settings.version')}
        </List.Item>
        {loggedIn && <MenuButton onClick={() => void confirmLogout()}>{t('settings.logout')}</MenuButton>}
      </List>
    </>
  );
}
