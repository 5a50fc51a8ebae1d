import { Button, Result } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { navigateTo } from '../navigation/nav';
import { PAGE_PATHS } from '../navigation/routes';

/** Shown instead of account content when nobody is logged in. */
export function LoginPrompt({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <div className="login-prompt">
      <Result status="info" title={message ?? t('user.loginPrompt')} />
      <div className="login-prompt__actions">
        <Button
          block
          color="primary"
          onClick={() => {
            navigateTo(PAGE_PATHS.login);
          }}
        >
          {t('user.login')}
        </Button>
        <Button
          block
          fill="outline"
          color="primary"
          onClick={() => {
            navigateTo(PAGE_PATHS.register);
          }}
        >
          {t('user.register')}
        </Button>
      </div>
    </div>
  );
}
