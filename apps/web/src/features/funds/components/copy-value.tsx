import { useTranslation } from 'react-i18next';
import { showSuccess, showToast } from '@/shared/ui/overlays';

/** Copies a value (an account number...) to the clipboard, saying what was copied. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="copy-button"
      aria-label={t('recharge.copyLabel', { label })}
      onClick={() => {
        navigator.clipboard.writeText(value).then(
          () => {
            showSuccess(t('recharge.copied', { label }));
          },
          () => {
            showToast(t('recharge.copyFailed'), 2000);
          },
        );
      }}
    >
      {t('recharge.copy')}
    </button>
  );
}
