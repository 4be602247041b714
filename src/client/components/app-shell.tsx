import { useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import {
  ActionIcon,
  AppShell,
  Avatar,
  Burger,
  Button,
  Group,
  NavLink,
  Text,
  Tooltip,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { stopLiveUpdates } from '#client/lib/live-updates.ts';
import { forgetSession, useMe } from '#client/lib/session.ts';
import { BrandMark } from './brand-mark.tsx';
import { initials } from './initials.ts';
import classes from './app-shell.module.css';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link.tsx';
import {
  AlertIcon,
  AppsIcon,
  KeyIcon,
  LogoutIcon,
  MoonIcon,
  ServerIcon,
  SettingsIcon,
  ShieldIcon,
  SunIcon,
  UsersIcon,
} from './icons.tsx';

const NAV_ITEMS = [
  {
    label: 'Clients',
    to: '/',
    icon: UsersIcon,
    match: (path: string) => path === '/' || path.startsWith('/clients/'),
  },
  { label: 'Issues', to: '/issues', icon: AlertIcon },
  { label: 'Servers', to: '/servers', icon: ServerIcon },
  { label: 'Credentials', to: '/credentials', icon: KeyIcon },
  { label: 'Apps', to: '/apps', icon: AppsIcon },
  // Administrators only (adminOnly): the People screen.
  { label: 'People', to: '/people', icon: ShieldIcon, adminOnly: true },
  { label: 'Settings', to: '/settings', icon: SettingsIcon },
];

const NAV_ID = 'main-navigation';

export function SignedInShell({ children }: { children: ReactNode }) {
  const [navOpen, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const { pathname } = useLocation();
  const isAdmin = useMe().role === 'admin';
  const burger = useRef<HTMLButtonElement>(null);
  // Below Mantine's sm the closed navigation is only moved off screen: inert, it is no Tab stop
  // and is not read out.
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const navHidden = !navOpen && !wide;
  const closeNavToBurger = () => {
    closeNav();
    burger.current?.focus();
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !navOpen } }}
      padding="md"
    >
      <SkipLink />
      <AppShell.Header className={classes.header}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              ref={burger}
              opened={navOpen}
              onClick={toggleNav}
              hiddenFrom="sm"
              size="sm"
              aria-label={navOpen ? 'Close navigation' : 'Open navigation'}
              aria-expanded={navOpen}
              aria-controls={NAV_ID}
            />
            <UnstyledButton component={Link} to="/" onClick={closeNav} aria-label="Clients Manager">
              <Group gap={8} wrap="nowrap">
                <BrandMark />
                <Text fw={700} size="lg" className={classes.brandName}>
                  Clients Manager
                </Text>
              </Group>
            </UnstyledButton>
          </Group>
          <UserArea />
        </Group>
      </AppShell.Header>

      <AppShell.Navbar
        p="sm"
        aria-label="Main"
        id={NAV_ID}
        inert={navHidden}
        // Open over the page on a phone: Escape closes it, and so does leaving it with Tab.
        onKeyDown={(event) => navOpen && event.key === 'Escape' && closeNavToBurger()}
        onBlur={(event) => {
          const to = event.relatedTarget;
          // The burger closes it itself: closed here first, its click would open it again.
          if (to !== burger.current && !event.currentTarget.contains(to)) closeNav();
        }}
      >
        {NAV_ITEMS.filter((item) => isAdmin || !('adminOnly' in item)).map((item) => {
          const active = item.match ? item.match(pathname) : pathname.startsWith(item.to);
          return (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={item.label}
              leftSection={<item.icon />}
              active={active}
              aria-current={active ? 'page' : undefined}
              onClick={closeNav}
            />
          );
        })}
      </AppShell.Navbar>

      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1}>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}

function UserArea() {
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [signingOut, setSigningOut] = useState(false);
  const name = me.displayName ?? 'User';

  async function signOut() {
    setSigningOut(true);
    // Better Auth's client (a tenth of the dashboard's code) loads only when it is needed.
    const { authClient, authErrorMessage } = await import('#client/lib/auth-client.ts');
    const { error } = await authClient.signOut();
    if (error) {
      setSigningOut(false);
      notifications.show({ color: 'red', message: authErrorMessage(error) });
      return;
    }
    stopLiveUpdates();
    forgetSession(queryClient);
    await navigate('/sign-in', { replace: true });
  }

  return (
    <Group gap="sm" wrap="nowrap">
      <ColorSchemeToggle />
      <Group gap={8} wrap="nowrap" className={classes.avatar}>
        {me.photoURL ? (
          <Avatar src={me.photoURL} alt={name} radius="xl" size={32} />
        ) : (
          <Avatar name={name} color="initials" radius="xl" size={32} role="img" aria-label={name}>
            {initials(name)}
          </Avatar>
        )}
        <Text size="sm" fw={500} maw={180} truncate="end" className={classes.name}>
          {name}
        </Text>
      </Group>
      <Button
        component={Link}
        to="/settings"
        variant="subtle"
        size="compact-sm"
        leftSection={<SettingsIcon size={16} />}
        className={classes.settingsWord}
      >
        Settings
      </Button>
      <ActionIcon
        component={Link}
        to="/settings"
        variant="subtle"
        size="lg"
        className={classes.settingsIcon}
        aria-label="Settings"
      >
        <SettingsIcon />
      </ActionIcon>
      <Button
        variant="default"
        size="compact-sm"
        leftSection={<LogoutIcon size={16} />}
        classNames={{ label: classes.signOutLabel, section: classes.signOutIcon }}
        loading={signingOut}
        onClick={() => void signOut()}
      >
        Sign out
      </Button>
    </Group>
  );
}

/**
 * Light/dark switch. The app starts in the system's scheme; a click picks the other one, and a
 * click back to what the system uses returns to following the system.
 */
function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)') ?? false;
  const next = scheme === 'dark' ? 'light' : 'dark';
  const system = systemDark ? 'dark' : 'light';
  return (
    <Tooltip label={`Switch to ${next} mode`}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={`Switch to ${next} mode`}
        onClick={() => setColorScheme(next === system ? 'auto' : next)}
      >
        {scheme === 'dark' ? <SunIcon /> : <MoonIcon />}
      </ActionIcon>
    </Tooltip>
  );
}
