import { Input } from 'antd-mobile';
import { useId } from 'react';
import { i18n } from '../i18n/i18n';
import { dialog } from '../ui/overlays';
import { SmsStepUpCancelled } from './support';

export type StepUpSecret = 'txn_password' | 'password';

interface Answer {
  code: string;
  secret: string;
}

function SmsStepUpFields(props: {
  askSecret: StepUpSecret | null;
  onCode: (code: string) => void;
  onSecret: (secret: string) => void;
}) {
  const codeId = useId();
  const secretId = useId();
  return (
    <div className="sms-step-up">
      <p>{i18n.t('smsStepUp.body')}</p>
      <div className="text-field">
        <label className="text-field__label" htmlFor={codeId}>
          {i18n.t('smsStepUp.code')}
        </label>
        <Input
          id={codeId}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          onChange={(value) => {
            props.onCode(value.trim());
          }}
        />
      </div>
      {props.askSecret === null ? null : (
        <div className="text-field">
          <label className="text-field__label" htmlFor={secretId}>
            {i18n.t(props.askSecret === 'txn_password' ? 'smsStepUp.txnPassword' : 'smsStepUp.password')}
          </label>
          <Input
            id={secretId}
            type="password"
            autoComplete={props.askSecret === 'password' ? 'current-password' : 'off'}
            onChange={props.onSecret}
          />
        </div>
      )}
    </div>
  );
}

/**
 * Asks for the SMS code (and the secret the server named, unless the form already holds it); throws
 * SmsStepUpCancelled when the user closes the dialog.
 */
export function askSmsCode(askSecret: StepUpSecret | null): Promise<Answer> {
  const answer: Answer = { code: '', secret: '' };
  return new Promise((resolve, reject) => {
    dialog
      .show({
        title: i18n.t('smsStepUp.title'),
        content: (
          <SmsStepUpFields
            askSecret={askSecret}
            onCode={(code) => {
              answer.code = code;
            }}
            onSecret={(secret) => {
              answer.secret = secret;
            }}
          />
        ),
        closeOnAction: true,
        actions: [
          [
            { key: 'cancel', text: i18n.t('common.cancel') },
            { key: 'confirm', text: i18n.t('smsStepUp.confirm'), bold: true },
          ],
        ],
        onAction: (action) => {
          if (action.key === 'confirm') resolve(answer);
          else reject(new SmsStepUpCancelled());
        },
      })
      .catch(reject);
  });
}
