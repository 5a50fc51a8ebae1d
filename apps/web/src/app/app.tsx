import { useState } from 'react';
import { Providers } from './providers';
import { AppRouter, createAppHistory } from './router';

export function App() {
  const [history] = useState(createAppHistory);
  return (
    <Providers>
      <AppRouter history={history} />
    </Providers>
  );
}
