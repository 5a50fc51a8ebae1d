import { APP_VERSION, APP_VERSION_CODE, ZAbout } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { List, Radio, Space } from 'antd-mobile';
import { Trans, useTranslation } from 'react-i18next';
import { api } from '@/shared/api/client';
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
        {loggedIn && <MenuButton onClick={() => void confirmLogout()}>{t('settings.logout')}</MenuButton>}
      </List>
      <About />
    </>
  );
}

/** GET /api/about (public): the app's version and the firm's registration as its administrators publish it. */
const aboutQuery = {
  queryKey: ['about'] as const,
  queryFn: () => api.request({ path: '/about', schema: ZAbout }),
  staleTime: 60 * 60_000,
};

/** The about section: version and version code, and who runs the service (a demo says it is none). */
function About() {
  const { t } = useTranslation();
  const { data } = useQuery(aboutQuery);
  const firm = data?.firm;
  return (
    <List header={t('settings.about')} data-testid="about">
      <List.Item
        extra={
          <span data-testid="app-version">
            {t('settings.versionText', {
              version: data?.version ?? APP_VERSION,
              code: data?.version_code ?? APP_VERSION_CODE,
            })}
          </span>
        }
      >
        {t('settings.version')}
      </List.Item>
      {firm && (
        <>
          {/* long values (a firm's name, a registration, in French) wrap under their label, not beside it */}
          <List.Item description={<span className="about-value">{firm.name}</span>}>
            {t('settings.firm')}
          </List.Item>
          <List.Item
            description={
              <>
                <span className="about-value" data-testid="firm-registration">
                  {firm.registration ?? t('settings.none')}
                </span>
                {firm.registration === null && (
                  <span className="about-value">{t('settings.unregistered')}</span>
                )}
              </>
            }
          >
            {t('settings.registration')}
          </List.Item>
          {firm.associations.length > 0 && (
            <List.Item description={<span className="about-value">{firm.associations.join('、')}</span>}>
              {t('settings.associations')}
            </List.Item>
          )}
        </>
      )}
    </List>
  );
}
