import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { FullPageLoader } from '#client/components/full-page-loader.tsx';
import { NotFoundPage } from '#client/components/not-found-page.tsx';
import { RouteErrorPage, ScreenErrorPage } from '#client/components/route-error-page.tsx';
import { clientQuery, clientsQuery } from '#client/features/clients/api/client-queries.ts';
import { meQuery } from '#client/lib/session.ts';
import { queryClient } from './query-client.ts';

/*
 * Thin routes, each screen loaded on demand: the signed-out screens never download the
 * signed-in shell or the dashboard.
 */

const signedOutRoutes: RouteObject[] = [
  {
    path: 'sign-in',
    lazy: async () => ({
      Component: (await import('../features/auth/sign-in-page.tsx')).SignInPage,
    }),
  },
  {
    path: 'sign-up',
    lazy: async () => ({
      Component: (await import('../features/auth/sign-up-page.tsx')).SignUpPage,
    }),
  },
  {
    path: 'verify-email-address',
    lazy: async () => ({
      Component: (await import('../features/auth/verify-email-page.tsx')).VerifyEmailPage,
    }),
  },
  {
    path: 'confirm-email',
    lazy: async () => ({
      Component: (await import('../features/auth/confirm-email-page.tsx')).ConfirmEmailPage,
    }),
  },
  {
    path: 'forgot-password',
    lazy: async () => ({
      Component: (await import('../features/auth/forgot-password-page.tsx')).ForgotPasswordPage,
    }),
  },
  {
    path: 'reset-password',
    lazy: async () => ({
      Component: (await import('../features/auth/reset-password-page.tsx')).ResetPasswordPage,
    }),
  },
];

/** REQUIRE_2FA's set-up: signed in, but outside the app's shell until a factor is set up. */
const secondFactorSetUp: RouteObject = {
  path: 'set-up-second-factor',
  lazy: async () => ({
    Component: (await import('./set-up-second-factor-route.tsx')).SetUpSecondFactorRoute,
  }),
};

/** The signed-in screens, inside the shell. */
const signedInScreens: RouteObject[] = [
  {
    // One route for "/" and "/clients/:clientId" so switching clients keeps the page mounted.
    lazy: async () => ({
      Component: (await import('./dashboard-route.tsx')).DashboardRoute,
    }),
    // The list is asked for while the dashboard's code loads, not once it has rendered.
    loader: () => {
      void queryClient.prefetchQuery(clientsQuery());
      return null;
    },
    children: [
      { index: true },
      {
        path: 'clients/:clientId',
        // The client is asked for while its panel's code loads (the first time it is shown).
        loader: ({ params }) => {
          if (params.clientId) void queryClient.prefetchQuery(clientQuery(params.clientId));
          return null;
        },
      },
    ],
  },
  { path: 'dashboard', element: <Navigate to="/" replace /> },
  {
    path: 'settings',
    lazy: async () => ({
      Component: (await import('./settings-route.tsx')).SettingsRoute,
    }),
  },
  {
    path: 'servers',
    lazy: async () => ({
      Component: (await import('../features/servers/servers-page.tsx')).ServersPage,
    }),
  },
  {
    path: 'servers/:serverId',
    lazy: async () => ({
      Component: (await import('../features/servers/server-page.tsx')).ServerPage,
    }),
  },
  {
    path: 'credentials',
    lazy: async () => ({
      Component: (await import('../features/credentials/credentials-page.tsx')).CredentialsPage,
    }),
  },
  {
    path: 'credentials/:credentialId',
    lazy: async () => ({
      Component: (await import('../features/credentials/credential-page.tsx')).CredentialPage,
    }),
  },
  {
    path: 'people',
    lazy: async () => ({
      Component: (await import('../features/people/people-page.tsx')).PeoplePage,
    }),
  },
  {
    path: 'apps',
    lazy: async () => ({
      Component: (await import('../features/apps/apps-page.tsx')).AppsPage,
    }),
  },
  {
    path: 'apps/:appId',
    lazy: async () => ({
      Component: (await import('../features/apps/app-page.tsx')).AppPage,
    }),
  },
  {
    path: 'issues',
    lazy: async () => ({
      Component: (await import('../features/issues/issues-page.tsx')).IssuesPage,
    }),
  },
  {
    path: 'issues/:issueId',
    lazy: async () => ({
      Component: (await import('../features/issues/issue-page.tsx')).IssuePage,
    }),
  },
];

const signedInRoutes: RouteObject = {
  lazy: async () => ({ Component: (await import('./signed-in-layout.tsx')).SignedInLayout }),
  // Who is signed in is asked while the shell's code loads, not once the guard has rendered.
  loader: () => {
    void queryClient.prefetchQuery(meQuery());
    return null;
  },
  // A screen that fails (its code not loaded on a dropped connection, say) is shown as failed
  // inside the shell: the navigation stays, and another section is a click away.
  children: [{ ErrorBoundary: ScreenErrorPage, children: signedInScreens }],
};

const router = createBrowserRouter([
  {
    path: '/',
    HydrateFallback: FullPageLoader,
    ErrorBoundary: RouteErrorPage,
    children: [
      ...signedOutRoutes,
      secondFactorSetUp,
      signedInRoutes,
      { path: '*', Component: NotFoundPage },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
