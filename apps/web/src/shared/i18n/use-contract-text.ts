import { CONTRACT_NS } from '@kabuto/client/i18n';
import { useTranslation, type UseTranslationOptions } from 'react-i18next';
import { tContract } from './i18n';

/**
 * Renders the component again when a catalogue is added: the contract's messages may arrive after it. The hook
 * reads `bindI18nStore` from its options as from the instance's `react` options (useTranslation.js), though
 * its type names only some of them.
 */
const ON_ARRIVAL: UseTranslationOptions<undefined> & { bindI18nStore: string } = { bindI18nStore: 'added' };

/**
 * `tContract` for a component that shows contract messages (a field's validation error, an order ticket's
 * issue): the contract's catalogue may arrive after the first screen has rendered (ADR 0059), and the
 * component then renders again with the message in words instead of its key.
 */
export function useContractText(): typeof tContract {
  useTranslation(CONTRACT_NS, ON_ARRIVAL);
  return tContract;
}
