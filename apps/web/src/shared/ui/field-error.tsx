import { useContractText } from '../i18n/use-contract-text';

/**
 * A form field's error under it, announced: a contract key (`validation.*`, a feature's `loans.validation.*`,
 * `errors.*`) from a zod schema is
 * translated here; any other text (a server's message, already in the user's language) is shown as is.
 */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  const tContract = useContractText();
  if (message === undefined) return null;
  return (
    <div className="text-field__error" id={id} role="alert">
      {/^((\w+\.)?validation|errors)\./.test(message) ? tContract(message) : message}
    </div>
  );
}
