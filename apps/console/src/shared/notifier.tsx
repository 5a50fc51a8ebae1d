import { App } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { useEffect } from 'react';

/**
 * Toasts for code outside components (the API client), through antd's App context so that they follow the
 * console's theme and language (antd's "global scene" recipe; its static `message` would not).
 */
let messages: MessageInstance | null = null;

/** Rendered once inside antd's <App>: hands its message API to `notify`. */
export function NotifierBridge() {
  const { message } = App.useApp();
  useEffect(() => {
    messages = message;
    return () => {
      messages = null;
    };
  }, [message]);
  return null;
}

export const notify = {
  // keyed by its text, so that a failure repeated by read retries shows once, not once per try
  error: (text: string) => {
    void messages?.error({ content: text, key: text });
  },
  warning: (text: string) => {
    void messages?.warning(text);
  },
};
