import { createBrowserRouter, Navigate } from 'react-router';
import { AppShell } from './routes/app-shell';
import { ContactsRoute } from './routes/contacts';
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
      children: [
        { index: true, element: <Navigate to="/contacts" replace /> },
        { path: 'contacts', element: <ContactsRoute /> },
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ]);
}
