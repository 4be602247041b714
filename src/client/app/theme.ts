import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/*
 * Every colour here is chosen for WCAG 2.1 AA contrast (4.5:1 for text), which the browser
 * suite's axe-core scan (e2e/accessibility.spec.ts) checks on every screen. Mantine's defaults
 * miss it: indigo-6 on white is 4.32:1, the dimmed grey 3.32:1 (light) and 4.03:1 (dark).
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 8 for filled colours and links: white on indigo reaches 5.67:1, white on the red
  // Delete button 4.51:1, indigo links on white 5.67:1.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  fontFamilyMonospace:
    'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontWeight: '650' },
  // Someone who asked their system for less motion gets no fades and slides.
  respectReducedMotion: true,
  components: {
    // A link inside a sentence must stand out by more than its colour.
    Anchor: { defaultProps: { underline: 'always' } },
    // Initials in the light variant: only the colours whose darkest shade on their lightest
    // reaches 4.5:1 (yellow, lime, orange, green and teal do not).
    Avatar: {
      defaultProps: {
        allowedInitialsColors: ['red', 'pink', 'grape', 'violet', 'indigo', 'blue', 'cyan'],
      },
    },
    // Light variants' text (light buttons, badges, alert titles) is darkened in light-variants.css.
    // The selected row's description keeps its full colour: faded, it misses 4.5:1.
    NavLink: { styles: { description: { opacity: 1 } } },
    // A table wider than a phone scrolls sideways; keyboard users reach the scroll by Tab.
    TableScrollContainer: {
      defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } },
    },
    // Icon-only buttons Mantine draws itself get a name for screen readers (Notification's too).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // Under a title Mantine greys the message to 3.32:1 (gray-6): the theme's dimmed instead.
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: (_theme: unknown, props: { title?: unknown }) =>
        props.title ? { description: { color: 'var(--mantine-color-dimmed)' } } : {},
    },
    FileInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear the file' } } },
    // Mantine's placeholder that takes focus on opening is a focusable role="presentation" inside
    // role="menu", which may hold only items (axe: aria-required-children). Without it focus
    // goes to the first item, as the WAI-ARIA menu button pattern has it.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
  },
});

/**
 * Mantine's colours for secondary text, placeholders (a file input's is text axe checks),
 * errors and focus rings, darkened in light mode and lightened in dark mode to reach 4.5:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    // Focus rings (app/focus.css): 5.7:1 on white.
    '--app-focus-ring': 'var(--mantine-color-indigo-8)',
    // 5.8:1 on white, 4.6:1 on the selected row's indigo-1.
    '--mantine-color-dimmed': '#5f6670',
    // 5.1:1 on white.
    '--mantine-color-placeholder': '#676f78',
    // 5.5:1 on white. Red text and destructive menu items take it: Mantine's red-6 is 3.28:1.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {
    // Focus rings: 5.2:1 on the page, 4.6:1 on an input's dark-6. Indigo-8 is 2.7:1 there.
    '--app-focus-ring': 'var(--mantine-color-indigo-4)',
    // 6.4:1 on the page, 4.6:1 even on dark-5.
    '--mantine-color-dimmed': '#a6a6a6',
    // 5.2:1 on an input's dark-6.
    '--mantine-color-placeholder': '#a0a0a0',
    // 5.9:1 on a form's dark-6 paper, 4.8:1 even on dark-5.
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
