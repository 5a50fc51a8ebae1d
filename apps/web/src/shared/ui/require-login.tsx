import type { ReactNode } from 'react';
import { useSession } from '../session/session';
import { LoginPrompt } from './login-prompt';

export function RequireLogin({ children }: { children: ReactNode }) {
  const token = useSession((s) => s.token);
  return token === null ? <LoginPrompt /> : <>{children}</>;
}
