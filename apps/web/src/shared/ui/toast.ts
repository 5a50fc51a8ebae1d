import { Toast } from 'antd-mobile';

/** The one toast of the app (antd-mobile). Failure toasts last 2000 ms, others 1500 ms (specification §9). */
export function showToast(message: string, durationMs = 1500): void {
  Toast.show({ content: message, duration: durationMs });
}

export function showSuccess(message: string, durationMs = 1500): void {
  Toast.show({ icon: 'success', content: message, duration: durationMs });
}
