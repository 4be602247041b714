/** The app's mark (same drawing as the favicon), decorative next to the name. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="var(--mantine-color-indigo-6)" />
      <circle cx="16" cy="12" r="5" fill="#fff" />
      <path
        d="M6.5 26c1.4-5 5.2-7.5 9.5-7.5s8.1 2.5 9.5 7.5"
        fill="none"
        stroke="#fff"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}
