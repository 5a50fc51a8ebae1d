import { zodResolver } from '@hookform/resolvers/zod';
import { ZPasskeyRename, type TPasskeyRename } from '@kabuto/contract';
import { isApiError } from '@kabuto/client/api-error';
import { Button, Dialog } from 'antd-mobile';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess, showToast } from '@/shared/ui/overlays';
import { useRenamePasskey } from '../api/passkeys';

/** Renames a passkey (a name the user will recognise in the list). */
export function RenameDialog({
  passkey,
  onClose,
}: {
  passkey: { id: number; name: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const rename = useRenamePasskey();
  const form = useForm<TPasskeyRename, unknown, { name: string }>({
    resolver: zodResolver(ZPasskeyRename),
    values: { name: passkey?.name ?? '' },
  });
  const onSubmit = form.handleSubmit((values) => {
    if (passkey === null) return;
    rename.mutate(
      { id: passkey.id, name: values.name },
      {
        onSuccess: () => {
          showSuccess(t('passkeys.renamed'));
          onClose();
        },
        onError: (error) => {
          if (isApiError(error)) showToast(error.msg, 2000);
        },
      },
    );
  });
  return (
    <Dialog
      visible={passkey !== null}
      destroyOnClose
      onClose={onClose}
      title={t('passkeys.rename')}
      content={
        <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={t('passkeys.rename')}>
          <TextField control={form.control} name="name" label={t('passkeys.name')} maxLength={40} />
          <div className="password-prompt__actions">
            <Button block disabled={rename.isPending} onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button block color="primary" type="submit" loading={rename.isPending}>
              {t('passkeys.save')}
            </Button>
          </div>
        </form>
      }
    />
  );
}
