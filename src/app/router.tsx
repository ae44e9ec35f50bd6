import { createBrowserRouter, Navigate } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { AppShell } from './routes/app-shell';
import { NotFoundRoute } from './routes/not-found';
import { RouteError } from './routes/route-error';
import { SignInRoute } from './routes/sign-in';

export function createAppRouter() {
  return createBrowserRouter([
    { path: '/sign-in', element: <SignInRoute />, errorElement: <RouteError /> },
    {
      path: '/',
      element: <AppShell />,
      errorElement: <RouteError />,
      hydrateFallbackElement: (
        <div className="flex min-h-dvh items-center justify-center" aria-busy="true">
          <Spinner label="Loading Ringbook…" />
        </div>
      ),
      children: [
        { index: true, element: <Navigate to="/contacts" replace /> },
        { path: 'contacts', lazy: async () => ({ Component: (await import('./routes/contacts')).ContactsRoute }) },
        { path: 'contacts/import', lazy: async () => ({ Component: (await import('./routes/contacts-import')).ContactsImportRoute }) },
        {
          path: 'contacts/imports/:id',
          lazy: async () => ({ Component: (await import('./routes/contacts-import')).ContactsImportOneRoute }),
        },
        { path: 'contacts/:id', lazy: async () => ({ Component: (await import('./routes/contact')).ContactRoute }) },
        { path: 'trash', lazy: async () => ({ Component: (await import('./routes/trash')).TrashRoute }) },
        { path: 'admin/tags', lazy: async () => ({ Component: (await import('./routes/admin-tags')).AdminTagsRoute }) },
        {
          path: 'admin/custom-fields',
          lazy: async () => ({ Component: (await import('./routes/admin-custom-fields')).AdminCustomFieldsRoute }),
        },
        {
          path: 'admin/integrations',
          lazy: async () => ({ Component: (await import('./routes/admin-integrations')).AdminIntegrationsRoute }),
        },
        { path: 'authorize', lazy: async () => ({ Component: (await import('./routes/authorize')).AuthorizeRoute }) },
        { path: 'admin/members', lazy: async () => ({ Component: (await import('./routes/admin-members')).AdminMembersRoute }) },
        { path: 'dialer/:id', lazy: async () => ({ Component: (await import('./routes/dialer')).DialerRoute }) },
        { path: 'calls', lazy: async () => ({ Component: (await import('./routes/calls')).CallsRoute }) },
        { path: 'calls/:id', lazy: async () => ({ Component: (await import('./routes/call')).CallRoute }) },
        { path: 'usage', lazy: async () => ({ Component: (await import('./routes/usage')).UsageRoute }) },
        { path: 'settings', lazy: async () => ({ Component: (await import('./routes/settings')).SettingsRoute }) },
        { path: 'developers', lazy: async () => ({ Component: (await import('./routes/developers')).DevelopersRoute }) },
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ]);
}
