import './mantine-styles';
import { MantineProvider } from '@mantine/core';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from '../auth/AuthProvider';
import { AppRoutes } from './routes';
import { cssVariablesResolver, theme } from './theme';

/**
 * Providers every route needs. Server state (TanStack Query), dialogs and toasts live in the
 * signed-in layout: the login page does not load them, and signing out drops the whole cache.
 */
export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <AuthProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AuthProvider>
    </MantineProvider>
  );
}
