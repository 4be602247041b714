import { useDocumentTitle } from '@mantine/hooks';

/**
 * The page's name in the browser's tab, its history and bookmarks, and the first thing a screen
 * reader says of it (WCAG 2.4.2): every screen sets its own, the app's name last.
 */
export function usePageTitle(title: string): void {
  useDocumentTitle(`${title} – Clients Manager`);
}
