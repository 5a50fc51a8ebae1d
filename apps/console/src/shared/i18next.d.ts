import type { Messages } from '@kabuto/contract';
import type { en } from '@/locales/en';

/** Translation keys are checked at compile time: a key missing from the catalogues is a type error. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en; contract: Messages };
  }
}
